// "Relayed" or "Direct", in words (never colour alone), from the connection's own statistics.
import { CONNECTION_KIND_TEXT, type ConnectionKind } from "./connection-kind.ts";

export default function ConnectionKindLabel({ kind, className = "" }: { kind: ConnectionKind | null; className?: string }) {
  if (!kind) return null;
  return (
    <p className={`connection-kind is-${kind} ${className}`.trim()} data-connection-kind={kind} role="status">
      <span aria-hidden="true">{kind === "relayed" ? "🔒 " : "⚠️ "}</span>
      {CONNECTION_KIND_TEXT[kind]}
    </p>
  );
}
