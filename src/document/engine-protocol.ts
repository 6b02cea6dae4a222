/**
 * The messages between the main thread and the engine worker (both sides import this file), in the
 * manner of pdf.js's MessageHandler: each call names an action and the document it is about; the
 * worker answers with chunks (the pages of an extraction, as each is done), then one result or one
 * error. Errors cross the boundary as their code, message and details and are rebuilt on the main
 * side; buffers are transferred, not copied.
 */

import { CiteproofError, ERROR_CODES, type ErrorCode } from "../errors.js";
import type { Box, PageGeometry } from "./model.js";
import type { Outline } from "./outlines.js";
import type { StoredPageText } from "./page-record.js";
import type { EngineRender } from "./render-result.js";

/** The document a call is about: bytes come along only when the worker does not hold it open. */
export interface DocumentRef {
  /** Identifies the document (its sha256 and password). */
  key: string;
  bytes?: Uint8Array;
  password?: string;
}

export type ExtractChunk =
  | { type: "opened"; pageCount: number }
  | { type: "page"; page: { text: StoredPageText; geometry?: PageGeometry } }
  | { type: "page-error"; page: number; message: string };

/** Each action: what it is given, what it streams, what it ends with. */
export interface Actions {
  extract: {
    /** 1-based pages to extract; undefined for all; empty for none (the page count only). */
    args: { pages?: number[]; withGeometry: boolean };
    chunk: ExtractChunk;
    result: { pageCount: number };
  };
  render: {
    /** `outlines`: boxes drawn into the image before it is encoded (see outlines.ts). */
    args: {
      page: number;
      box?: Box;
      dpi: number;
      pngCompression?: number;
      fewestChannels?: boolean;
      outlines?: Outline[];
    };
    chunk: never;
    result: EngineRender;
  };
  /** Several regions of one page, the page loaded once (its images decoded once). */
  renderMany: {
    args: {
      page: number;
      regions: { box: Box; dpi: number }[];
      pngCompression?: number;
      fewestChannels?: boolean;
    };
    chunk: never;
    result: EngineRender[];
  };
}
export type ActionName = keyof Actions;

export type CallMessage = {
  [A in ActionName]: { id: number; action: A; doc: DocumentRef; args: Actions[A]["args"] };
}[ActionName];

/** An error as it crosses the boundary. */
export interface WireError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export type ReplyMessage =
  | { id: number; type: "chunk"; chunk: unknown }
  /** `engineBytes`: how large the engine's memory has grown (it never shrinks while the worker lives). */
  | { id: number; type: "result"; result: unknown; engineBytes?: number }
  /** `released`: the worker does not hold the call's document any more (it failed to open). */
  | { id: number; type: "error"; error: WireError; released: boolean; engineBytes?: number }
  /** The engine aborted: the worker answers nothing more and ends; what it had not done is to be redone. */
  | { id: 0; type: "lost"; message: string };

/** Asks the worker to close its document and end (see worker-end.ts). */
export interface CloseMessage {
  close: true;
}

/** What the worker is started with. */
export interface WorkerSetup {
  /** How far the engine's memory may grow, in bytes. */
  engineMemoryBytes?: number;
}

export function toWire(error: unknown): WireError {
  if (error instanceof CiteproofError)
    return error.details === undefined
      ? { code: error.code, message: error.message }
      : { code: error.code, message: error.message, details: error.details };
  return { code: "", message: error instanceof Error ? error.message : String(error) };
}

/** Rebuilds an error; one without a known code takes the action's `fallback`. */
export function fromWire(error: WireError, fallback: ErrorCode): CiteproofError {
  const code = (ERROR_CODES as readonly string[]).includes(error.code) ? (error.code as ErrorCode) : fallback;
  return new CiteproofError(code, error.message, error.details);
}
