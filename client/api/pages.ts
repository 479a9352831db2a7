import { type QueryKey, useInfiniteQuery } from "@tanstack/react-query";
import type { PageFields } from "../../common/schemas/paging.js";

/**
 * A paged list route (issue 37: every list answers a page at most) read a page at a time: the
 * first page at once, the next when the person asks for more. `items` are the pages read so far,
 * in order.
 */
export function usePagedList<T>(queryKey: QueryKey, fetchPage: (offset: number) => Promise<{ items: T[] } & PageFields>, enabled = true) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    enabled,
    initialPageParam: 0,
    getNextPageParam: (last) => (last.has_more ? last.offset + last.limit : undefined),
  });
  return {
    items: query.data?.pages.flatMap((page) => page.items),
    isLoading: query.isLoading,
    isError: query.isError,
    error: query.error,
    hasMore: query.hasNextPage,
    isLoadingMore: query.isFetchingNextPage,
    loadMore: () => void query.fetchNextPage(),
  };
}
