/** The parts of `@arborium/groovy` (no types of its own) that test/helpers/groovy.ts uses. */
declare module '@arborium/groovy' {
  export function initSync(options: { module: BufferSource | WebAssembly.Module }): unknown
  export function create_session(): number
  export function free_session(session: number): void
  export function set_text(session: number, text: string): void
  export function parse_utf16(session: number): unknown
}
