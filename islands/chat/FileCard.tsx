// A file that is not shown inline: its name and size in KB, opened from /uploads/.
import { fileSizeKb } from "../lib/format.ts";
import Icon from "./icons.tsx";

export default function FileCard({ name, size, href }: { name: string; size: number | null; href: string }) {
  return (
    <a className="file-card" href={href} target="_blank" rel="noopener noreferrer" download={name}>
      <span className="file-icon">
        <Icon name="file" />
      </span>
      <span className="file-info">
        <span className="file-name">{name}</span>
        <span className="file-size">{fileSizeKb(size)}</span>
      </span>
    </a>
  );
}
