import { createApi, fakeBaseQuery } from '@reduxjs/toolkit/query/react';
import type { PostgrestError } from '@supabase/postgrest-js';
import type { Backend } from './backend';

/**
 * What a failed backend call gives the UI: the backend's own message and code (PostgREST's
 * `{code, message}`), so a page can show a catalogue message for the cases it knows and the
 * backend's words otherwise.
 */
export interface BackendError {
  message: string;
  code?: string;
  status?: number;
}

export function toBackendError(error: unknown, status?: number): BackendError {
  if (error && typeof error === 'object' && 'message' in error) {
    const { message, code } = error as Partial<PostgrestError>;
    return {
      message: String(message),
      ...(code ? { code } : {}),
      ...(status ? { status } : {}),
    };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}

/** The clients, from RTK Query's `extra` (see makeStore): never kept in the state. */
export async function backendOf(extra: unknown): Promise<Backend> {
  return (extra as { backend: () => Promise<Backend> }).backend();
}

/**
 * The one RTK Query API of the app (DESIGN.md, State). Each feature adds its endpoints with
 * injectEndpoints; queries talk to the backend through supabase-js's PostgREST client in `queryFn`.
 */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery: fakeBaseQuery<BackendError>(),
  tagTypes: ['Leaderboard', 'User', 'GameResults'],
  endpoints: () => ({}),
});

export type BackendApi = typeof baseApi;

/** Runs a backend request and hands RTK Query its data or a BackendError. */
export async function fromSupabase<T>(
  request: PromiseLike<{ data: T | null; error: PostgrestError | null; status: number }>,
): Promise<{ data: T } | { error: BackendError }> {
  try {
    const { data, error, status } = await request;
    if (error) return { error: toBackendError(error, status) };
    return { data: data as T };
  } catch (error) {
    return { error: toBackendError(error) };
  }
}
