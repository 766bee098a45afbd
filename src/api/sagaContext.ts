import type { BackendProvider } from './backend';

/** The backend's part of the saga context (DESIGN.md, where side effects live). */
export interface BackendContext {
  /** The backend's clients, made on first use. */
  backend: BackendProvider;
}
