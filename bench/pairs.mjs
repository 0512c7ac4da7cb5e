// npm run bench:pairs [-- filter] : switchyard against each competitor in
// pairs, for the scenarios whose name or file contains `filter` (all without).
//
// Why: `npm run bench` starts a fresh server for every round and keeps each
// server's best round; on a shared machine the rounds of two servers can fall
// in a quiet and a busy minute, and single rows then move by 10-40% between
// runs. Here both servers of a pair stay up, 2-second loads alternate between
// them (A B, B A, A B...), and each pair of neighbouring loads gives one ratio
// of CPU time per request. The median of those ratios, with its range and the
// share of pairs on each side, is far steadier than a ratio of two best
// rounds. The servers keep running from pair to pair, so the later pairs see
// each server in the young generation its requests so far have grown
// (BENCH_NODE_FLAGS=--min-semi-space-size=16 starts every server at full size).
//
// Environment:
//   PAIRS_VS      comma-separated competitors of switchyard (default fastify,node;
//                 also express, and baseline with BENCH_BASELINE set)
//   PAIRS_COUNT   pairs per competitor (default 12)
//   PAIRS_SECONDS seconds of each load (default 2)
// and, as for `npm run bench`: BENCH_CONNECTIONS, BENCH_PIN, BENCH_CPU,
// BENCH_NODE_FLAGS, BENCH_BASELINE.
import { pathToFileURL } from 'node:url'
import { scenarios, startServer, loadServer, measureLoad, nodeFlags, runtime } from './run.mjs'

const filter = process.argv[2]
const competitors = (process.env.PAIRS_VS || 'fastify,node').split(',').map((s) => s.trim()).filter(Boolean)
const count = Number(process.env.PAIRS_COUNT || 12)
const seconds = Number(process.env.PAIRS_SECONDS || 2)

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

/** One load of `seconds` on the server; its CPU time per request in µs. */
async function cpuPerRequest(server, req) {
  return (await measureLoad(server, req, { duration: seconds })).cpu
}

/**
 * `count` pairs of loads of the servers `base` and `competitor` (implementations
 * of bench/server.mjs), alternating which goes first; the competitor's CPU per
 * request over base's, per pair, and each one's CPU per request (µs) per load.
 */
export async function pairs(file, req, competitor, base = 'switchyard') {
  const other = await startServer(file, competitor, nodeFlags)
  const mine = await startServer(file, base, nodeFlags)
  other.child.removeAllListeners('exit')
  mine.child.removeAllListeners('exit')
  try {
    await loadServer(other.port, req, { duration: seconds }, 'warm-up')
    await loadServer(mine.port, req, { duration: seconds }, 'warm-up')
    const ratios = []
    const us = { other: [], base: [] }
    for (let i = 0; i < count; i++) {
      const [a, b] = i % 2 === 0
        ? [await cpuPerRequest(other, req), await cpuPerRequest(mine, req)]
        : [await cpuPerRequest(mine, req), await cpuPerRequest(other, req)].reverse()
      us.other.push(a)
      us.base.push(b)
      ratios.push(a / b)
    }
    return { ratios, us }
  } finally {
    other.child.kill()
    mine.child.kill()
  }
}

/** A table cell: the median ratio, its range, and how many pairs are above 1. */
export function summary(ratios) {
  const sorted = [...ratios].sort((a, b) => a - b)
  return `${median(ratios).toFixed(2)}x (${sorted[0].toFixed(2)}-${sorted.at(-1).toFixed(2)}, ${ratios.filter((r) => r > 1).length}/${ratios.length})`
}

export { median }

async function main() {
  const rows = []
  console.log(`pairs: ${runtime}; ${count} pairs of ${seconds}s loads per competitor; switchyard against ${competitors.join(', ')}`)
  for (const { file, scenario } of await scenarios(filter)) {
    const row = { scenario: scenario.name }
    for (const competitor of competitors) {
      if (!scenario[competitor] && !(competitor === 'baseline' && scenario.switchyard)) continue
      const { ratios, us } = await pairs(file, scenario.request, competitor)
      row[competitor] = summary(ratios)
      console.log(`${scenario.name}: ${competitor} ${median(us.other).toFixed(1)} µs, switchyard ${median(us.base).toFixed(1)} µs (medians); ${competitor}/switchyard ${row[competitor]}`)
    }
    rows.push(row)
  }

  console.log('\nCompetitor CPU per request over switchyard\'s, median of the pairs (range, pairs above 1): > 1 means switchyard is ahead.\n')
  console.log(`| scenario | ${competitors.map((c) => `cpu ${c}/sy`).join(' | ')} |`)
  console.log(`|---|${competitors.map(() => '---:').join('|')}|`)
  for (const row of rows) console.log(`| ${row.scenario} | ${competitors.map((c) => row[c] ?? '-').join(' | ')} |`)
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main()
