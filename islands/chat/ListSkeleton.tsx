// Placeholder rows while a list loads (the chat list shows up to 8).
import { t } from "../i18n.ts";

export default function ListSkeleton({ rows }: { rows: number }) {
  return (
    <ul className="list skeleton-list" aria-busy="true" aria-label={t("common.loading")}>
      {Array.from({ length: Math.min(rows, 8) }, (_, i) => (
        <li key={i} className="row skeleton-row">
          <span className="skeleton skeleton-avatar" />
          <span className="skeleton-lines">
            <span className="skeleton skeleton-line" style={{ width: `${55 + ((i * 17) % 35)}%` }} />
            <span className="skeleton skeleton-line short" style={{ width: `${35 + ((i * 23) % 40)}%` }} />
          </span>
        </li>
      ))}
    </ul>
  );
}
