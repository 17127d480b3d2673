// SPDX-License-Identifier: GPL-3.0-or-later
// Our engine compiled to WebAssembly (crates/engine-wasm, built by web/tools/build-engine-wasm.sh): loading it and
// its small C ABI (text in and JSON out through the module's memory). No DOM here: the worker and node (tests,
// web/tools/bench-engine-wasm.mjs) both use it.

import type { AnalysisLine } from '../protocol_analysis';

/** What one search answers (see crates/engine-wasm/src/lib.rs). */
export interface WasmReport {
  depth: number;
  nodes: number;
  lines: AnalysisLine[];
}

interface Exports {
  memory: WebAssembly.Memory;
  gx_alloc(len: number): number;
  gx_free(ptr: number, len: number): void;
  gx_set_position(ptr: number, len: number): number;
  gx_search(depth: number, nodes: number, multipv: number): number;
  gx_output(): number;
  gx_output_len(): number;
  gx_new_game(): void;
  gx_judge_game(ptr: number, len: number): number;
}

/** A tiny module using a 128-bit SIMD instruction: whether it validates says whether the browser has SIMD. */
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

export function hasSimd(): boolean {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

export class WasmEngine {
  /** Told the searches done so far during `judgeGame`. */
  private progress: (done: number, total: number) => void = () => {};

  private constructor(private x: Exports) {}

  /** Instantiates the module from its bytes or a compiled module. */
  static async load(code: BufferSource | WebAssembly.Module): Promise<WasmEngine> {
    let engine: WasmEngine | null = null;
    const imports = {
      env: {
        gx_now_ms: () => performance.now(),
        gx_progress: (done: number, total: number) => engine?.progress(done, total),
      },
    };
    const module = code instanceof WebAssembly.Module ? code : await WebAssembly.compile(code);
    const instance = await WebAssembly.instantiate(module, imports);
    engine = new WasmEngine(instance.exports as unknown as Exports);
    return engine;
  }

  private input(text: string): [number, number] {
    const bytes = new TextEncoder().encode(text);
    const ptr = this.x.gx_alloc(bytes.length);
    new Uint8Array(this.x.memory.buffer, ptr, bytes.length).set(bytes);
    return [ptr, bytes.length];
  }

  /**
   * A game review's searches (the server makes the review of them): `moves` (UCI) from `fen` (undefined: the
   * start) at `nodes` per position, both judges, one search after another; `progress` after each. The JSON text to
   * send to `POST /api/game/{id}/review/browser`, or throws the engine's error. Runs to the end.
   */
  judgeGame(fen: string | undefined, moves: string[], nodes: number, progress: (done: number, total: number) => void): string {
    const [ptr, len] = this.input(JSON.stringify({ fen: fen ?? null, moves, nodes }));
    this.progress = progress;
    try {
      this.x.gx_judge_game(ptr, len);
    } finally {
      this.progress = () => {};
      this.x.gx_free(ptr, len);
    }
    const text = this.output();
    if (text.startsWith('{"error"')) throw new Error((JSON.parse(text) as { error: string }).error);
    return text;
  }

  private output(): string {
    const ptr = this.x.gx_output();
    const len = this.x.gx_output_len();
    return new TextDecoder().decode(new Uint8Array(this.x.memory.buffer, ptr, len));
  }

  /** Sets the position (`fen` undefined: the start) after `moves` (UCI); its FEN, or throws the engine's error. */
  setPosition(fen: string | undefined, moves: string[]): string {
    const [ptr, len] = this.input(`${fen ?? ''}\n${moves.join(' ')}`);
    const rc = this.x.gx_set_position(ptr, len);
    this.x.gx_free(ptr, len);
    const answer = JSON.parse(this.output()) as { fen?: string; error?: string };
    if (rc !== 0 || answer.fen === undefined) throw new Error(answer.error ?? 'engine error');
    return answer.fen;
  }

  /** Searches to `depth` (at most `nodes`, 0: no limit) with `multipv` lines; the table is kept between calls. */
  search(depth: number, nodes: number, multipv: number): WasmReport {
    this.x.gx_search(depth, nodes, multipv);
    return JSON.parse(this.output()) as WasmReport;
  }

  newGame(): void {
    this.x.gx_new_game();
  }
}
