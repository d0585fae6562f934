/**
 * `npx tsx scripts/bench/profile-summary.ts FILE.cpuprofile [--top N]`
 * Where a V8 CPU profile (`node --cpu-prof`, as `npm run bench -- --cpu-prof` writes) spent its
 * time, without a GUI: the functions with the most self time (in the function's own code) and
 * the most total time (with everything it called), each with its file and line (TypeScript
 * files by their own lines when the bench left their source maps beside the profile).
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '30' } } });
const file = positionals[0];
if (!file) {
  console.error('usage: npx tsx scripts/bench/profile-summary.ts FILE.cpuprofile [--top N]');
  process.exit(2);
}
const top = Number(values.top);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

// The source maps of the profiled process's TypeScript (bench/server.ts writes them beside the
// profile), so that positions in tsx's compiled code read as lines of the sources.
const pid = /\.(\d+)\.\d+\.\d+\.cpuprofile$/.exec(file)?.[1];
const mapsFile = pid ? path.join(path.dirname(file), `CPU-sourcemaps.${pid}.json`) : '';
const maps = new Map<string, SourceMap>(
  existsSync(mapsFile) ? Object.entries(JSON.parse(readFileSync(mapsFile, 'utf8')) as Record<string, SourceMapPayload>).map(([url, payload]) => [url, new SourceMap(payload)]) : [],
);

/** One function: its name and where it is (V8's lines and columns are 0-based). */
function frameOf(node: ProfileNode): string {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  const name = functionName || '(anonymous)';
  if (!url) return name;
  const entry = maps.get(url)?.findEntry(lineNumber, columnNumber) as { originalSource?: string; originalLine?: number } | undefined;
  const [source, line] = entry?.originalSource !== undefined && entry.originalLine !== undefined ? [entry.originalSource, entry.originalLine] : [url, lineNumber];
  const where = source.startsWith('file://') ? path.relative(process.cwd(), new URL(source).pathname) : source;
  return `${name} ${where}:${line + 1}`;
}

// A sample lasts until the next one; the last one until the profile ends.
const selfByNode = new Map<number, number>();
const samples = profile.samples ?? [];
const deltas = profile.timeDeltas ?? [];
let at = profile.startTime;
const stamps = samples.map((_, i) => (at += deltas[i] ?? 0));
for (let i = 0; i < samples.length; i++) {
  const duration = (i + 1 < stamps.length ? stamps[i + 1]! : profile.endTime) - stamps[i]!;
  selfByNode.set(samples[i]!, (selfByNode.get(samples[i]!) ?? 0) + Math.max(0, duration));
}

const parent = new Map<number, number>();
const byId = new Map<number, ProfileNode>();
for (const node of profile.nodes) {
  byId.set(node.id, node);
  for (const child of node.children ?? []) parent.set(child, node.id);
}

const self = new Map<string, number>();
const total = new Map<string, number>();
for (const node of profile.nodes) {
  const time = selfByNode.get(node.id) ?? 0;
  if (time === 0) continue;
  const frame = frameOf(node);
  self.set(frame, (self.get(frame) ?? 0) + time);
  // A function counts once per sample however often it recurs on the stack.
  const onStack = new Set<string>();
  for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) onStack.add(frameOf(byId.get(id)!));
  for (const f of onStack) total.set(f, (total.get(f) ?? 0) + time);
}

const all = [...selfByNode.values()].reduce((a, b) => a + b, 0);
const ms = (us: number) => (us / 1000).toFixed(1).padStart(9);
const pct = (us: number) => `${((100 * us) / (all || 1)).toFixed(1).padStart(5)}%`;
function print(title: string, times: Map<string, number>) {
  console.log(`\n${title}\n     ms       %   function`);
  for (const [frame, time] of [...times].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(time)}  ${pct(time)}   ${frame}`);
}

console.log(`${file}: ${(all / 1000).toFixed(0)} ms sampled in ${samples.length.toLocaleString()} samples${maps.size > 0 ? `; TypeScript lines read through ${path.basename(mapsFile)}` : ''}`);
print(`top ${top} by self time`, self);
print(`top ${top} by total (inclusive) time`, total);
