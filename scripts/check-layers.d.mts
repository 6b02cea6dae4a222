export const LAYERS: string[][];
export const ALLOWED: Map<string, string>;
export function layerOf(path: string): number | undefined;
export function importsOf(source: string): string[];
export interface Violation {
  from: string;
  to: string | undefined;
  problem: string;
}
export function violations(
  modules: { path: string; source: string }[],
  allowed?: Map<string, string>,
): Violation[];
export function modulesUnder(dir: string): { path: string; source: string }[];
