// Page links for a paged list. The other query parameters (filters) are kept.

export function Pager({ path, query, page, pages }: { path: string; query: Record<string, string>; page: number; pages: number }) {
  if (pages <= 1) return null;
  const href = (n: number) => {
    const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== ""));
    if (n > 1) params.set("page", String(n));
    const search = params.toString();
    return search ? `${path}?${search}` : path;
  };
  // First, last and two either side of the current page: enough to move, never hundreds of links.
  const shown = [...new Set([1, page - 2, page - 1, page, page + 1, page + 2, pages])].filter((n) => n >= 1 && n <= pages).sort((a, b) => a - b);
  return (
    <nav className="mod-pager" aria-label="Pages">
      {page > 1 ? <a href={href(page - 1)} rel="prev">Previous</a> : null}
      {shown.map((n, i) => (
        <span key={n}>
          {i > 0 && n - (shown[i - 1] ?? n) > 1 ? <span aria-hidden="true">… </span> : null}
          {n === page ? <strong aria-current="page">{n}</strong> : <a href={href(n)}>{n}</a>}
        </span>
      ))}
      {page < pages ? <a href={href(page + 1)} rel="next">Next</a> : null}
    </nav>
  );
}
