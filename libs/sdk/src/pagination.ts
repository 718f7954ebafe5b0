/** What every list answers inside its envelope: one array of items and the cursor of the next page. */
export interface CursorPage {
  next_cursor: string | null;
}

/** The element type of the page's item array (a list page has exactly one array field). */
export type PageItem<P> = {
  [K in keyof P]: P[K] extends ReadonlyArray<infer I> ? I : never;
}[keyof P];

/** A list operation of the SDK: takes options with a query (limit, cursor), answers the envelope. */
export type ListOperation<O, P extends CursorPage> = (options: O) => Promise<{ data: { data: P } }>;

function withCursor<O>(options: O | undefined, cursor: string | undefined): O {
  const query = {
    ...((options as { query?: object } | undefined)?.query ?? {}),
    ...(cursor ? { cursor } : {}),
  };
  return { ...(options ?? {}), query } as O;
}

/** Every page of a list, following next_cursor from the first page (or from options.query.cursor). */
export async function* pages<O = undefined, P extends CursorPage = CursorPage>(
  list: ListOperation<O, P>,
  options?: O,
): AsyncGenerator<P, void, undefined> {
  let cursor = (options as { query?: { cursor?: string } } | undefined)?.query?.cursor;
  const seen = new Set<string>();
  do {
    const { data } = await list(withCursor(options, cursor));
    yield data.data;
    cursor = data.data.next_cursor ?? undefined;
    // A server handing back a cursor it already gave would loop forever.
    if (cursor !== undefined) {
      if (seen.has(cursor)) throw new Error(`pagination: the cursor ${cursor} came back twice`);
      seen.add(cursor);
    }
  } while (cursor !== undefined);
}

/** The items of a page: its only array field. */
export function pageItems<P extends CursorPage>(page: P): PageItem<P>[] {
  const arrays = Object.values(page).filter(Array.isArray);
  if (arrays.length !== 1) {
    throw new Error(
      `pagination: a page should have exactly one array of items, this one has ${arrays.length}`,
    );
  }
  return arrays[0] as PageItem<P>[];
}

/**
 * Every item of a list, page after page: `for await (const agent of paginate((o) => api.agents.list(o),
 * { query: { limit: 50 } }))`. Pages are fetched as the loop asks for them.
 */
export async function* paginate<O = undefined, P extends CursorPage = CursorPage>(
  list: ListOperation<O, P>,
  options?: O,
): AsyncGenerator<PageItem<P>, void, undefined> {
  for await (const page of pages(list, options)) yield* pageItems(page);
}
