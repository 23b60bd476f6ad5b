import { useId, type ReactNode } from 'react';

/**
 * A table's caption and column headers, one markup for every list: the caption is read to assistive technology (shown
 * too with `showCaption`), each column is a `<th scope="col">`, and `actions` adds a last column for row buttons whose
 * header only screen readers hear.
 */
export function TableHead({
  caption,
  columns,
  actions = false,
  showCaption = false,
  captionId,
}: {
  caption: string;
  columns: readonly string[];
  actions?: boolean;
  showCaption?: boolean;
  captionId?: string;
}) {
  return (
    <>
      <caption id={captionId} className={showCaption ? undefined : 'visually-hidden'}>
        {caption}
      </caption>
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

/**
 * The box of a table: on a screen narrower than the table (a phone), the table scrolls sideways inside it and the page
 * does not. It is a region named by the table's caption (`captionId`) and takes the focus, so a keyboard user can
 * scroll it too (the arrow keys) and a screen reader says which table it holds.
 */
export function TableBox({ captionId, children }: { captionId: string; children: ReactNode }) {
  return (
    <div className="table-box" role="region" aria-labelledby={captionId} tabIndex={0}>
      {children}
    </div>
  );
}

/** A list as a table in its box (`TableBox`) with its caption and column headers (`TableHead`); `children` are the rows. */
export function DataTable({
  className,
  children,
  ...head
}: {
  caption: string;
  columns: readonly string[];
  actions?: boolean;
  showCaption?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const captionId = `${useId()}-caption`;
  return (
    <TableBox captionId={captionId}>
      <table className={className}>
        <TableHead {...head} captionId={captionId} />
        {children}
      </table>
    </TableBox>
  );
}
