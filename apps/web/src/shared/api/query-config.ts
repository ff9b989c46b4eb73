/**
 * Per-use options of a canonical query (bulletproof-react's `QueryConfig`): everything a `…QueryOptions` factory
 * sets except its key and fetcher, so a screen may change `enabled`, `refetchInterval`, `staleTime`, `select`-free
 * options and the like for its own use while every use shares one key and one fetcher. `T` is the factory, e.g.
 * `QueryConfig<typeof getProfileQueryOptions>`. Type only: nothing of it reaches a bundle.
 */
export type QueryConfig<T extends (...args: never[]) => unknown> = Omit<ReturnType<T>, "queryKey" | "queryFn">;
