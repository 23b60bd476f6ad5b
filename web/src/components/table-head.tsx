/**
 * A table's caption and column headers, one markup for every list: the caption is read to assistive technology (shown
 * too with `showCaption`), each column is a `<th scope="col">`, and `actions` adds a last column for row buttons whose
 * header only screen readers hear.
 */
export function TableHead({ caption, columns, actions = false, showCaption = false }: { caption: string; columns: readonly string[]; actions?: boolean; showCaption?: boolean }) {
  return (
    <>
      <caption className={showCaption ? undefined : 'visually-hidden'}>{caption}</caption>
      <thead>
        <tr>
          {columns.map((c) => (
            <th scope="col" key={c}>
              {c}
            </th>
          ))}
          {actions && (
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          )}
        </tr>
      </thead>
    </>
  );
}
