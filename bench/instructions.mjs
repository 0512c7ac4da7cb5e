// npm run bench:instructions [-- filter] : machine instructions per request,
// counted by valgrind's callgrind, for each scenario and implementation.
//
// Why: this machine is shared, and CPU time per request moves 10-40% from one
// run to the next (bench/run.mjs keeps the best of several interleaved rounds
// for that reason). An instruction count does not depend on what the
// neighbours do, so a change of 1-3% shows in one run. It is not a time: it
// leaves out the kernel (the socket work, most of a small request's CPU time),
// and an instruction that misses the cache costs more than one that does not.
// Use it to compare two builds, or a build and a competitor, on the same
// request path; use `npm run bench` for the figures the README quotes.
//
// How: each server (bench/server.mjs, as in `npm run bench`, not pinned) runs
// under callgrind. The runner sends WARM requests (the JIT compiles the hot
// path), zeroes the counters (`callgrind_control -z`), sends MEAS requests,
// dumps the counters (`callgrind_control -d`) and divides. It prints the
// whole process's count and the main thread's (the event loop: without V8's
// compiler and garbage-collection helper threads, whose share moves with
// timing).
//
// Needs valgrind (`apt-get install valgrind`). Slow: about a minute per server.
//
// Environment:
//   INSN_IMPLS      comma-separated implementations (default switchyard,fastify;
//                   also express, node, and baseline with BENCH_BASELINE set)
//   INSN_WARM       warm-up requests (default 12000)
//   INSN_MEAS       measured requests (default 20000)
//   BENCH_BASELINE  path of another build's dist/index.cjs, as for `npm run bench`
import { spawn, execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadServer, scenarios } from './run.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const impls = (process.env.INSN_IMPLS || 'switchyard,fastify').split(',').map((s) => s.trim())
const warm = Number(process.env.INSN_WARM || 12000)
const meas = Number(process.env.INSN_MEAS || 20000)
const filter = process.argv[2]

/** The process's total and its event loop's inclusive count, from a callgrind dump. */
function counts(file) {
  const total = Number(/^(?:summary|totals):\s*(\d+)/m.exec(readFileSync(file, 'utf8'))[1])
  const annotated = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', file], { encoding: 'utf8', maxBuffer: 1 << 28 })
  const loop = /^\s*([\d,]+) .*SpinEventLoopInternal/m.exec(annotated)
  return { total, main: loop ? Number(loop[1].replace(/,/g, '')) : NaN }
}

async function measure(file, impl, req) {
  const dir = mkdtempSync(path.join(tmpdir(), 'insn-'))
  const child = spawn('valgrind', ['--tool=callgrind', '--smc-check=all-non-file', `--callgrind-out-file=${path.join(dir, 'cg.%p')}`,
    process.execPath, path.join(here, 'server.mjs'), file, impl], { stdio: ['pipe', 'pipe', 'ignore'], env: process.env })
  try {
    const port = await new Promise((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (c) => { out += c; if (out.includes('\n')) resolve(Number(out.trim())) })
      child.once('exit', (code) => reject(new Error(`${impl} server exited with code ${code}`)))
    })
    await loadServer(port, req, { amount: warm }, 'warm-up')
    execFileSync('callgrind_control', ['-z', String(child.pid)], { stdio: 'ignore' })
    await loadServer(port, req, { amount: meas }, 'measured')
    execFileSync('callgrind_control', ['-d', String(child.pid)], { stdio: 'ignore' })
    const dump = readdirSync(dir).find((f) => /^cg\.\d+\.\d+$/.test(f))
    const { total, main } = counts(path.join(dir, dump))
    return { total: total / meas, main: main / meas }
  } finally {
    child.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }
}

const rows = []
for (const { file, scenario } of await scenarios(filter)) {
  const row = { scenario: scenario.name }
  for (const impl of impls) {
    row[impl] = await measure(file, impl, scenario.request)
    console.error(`${scenario.name} | ${impl}: ${Math.round(row[impl].total)} instructions/request (main thread ${Math.round(row[impl].main)})`)
  }
  rows.push(row)
}
console.log(`\n| scenario | ${impls.map((i) => `${i} (main thread)`).join(' | ')} |`)
console.log(`|---|${impls.map(() => '---:').join('|')}|`)
for (const r of rows) console.log(`| ${r.scenario} | ${impls.map((i) => `${Math.round(r[i].total)} (${Math.round(r[i].main)})`).join(' | ')} |`)
