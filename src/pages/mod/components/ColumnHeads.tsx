// The header row of the moderation tables: one column heading per name, in order.
export function ColumnHeads({ columns }: { columns: string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((name) => (
          <th key={name} scope="col">
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}
