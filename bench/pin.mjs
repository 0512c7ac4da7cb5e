// Core pinning for the bench's server children. When `taskset` (util-linux) is
// on the PATH, each server runs pinned to one core, as in the reference
// measurement: the server's threads (main, GC, libuv pool) then share one core
// and the load generator gets the rest of the machine. BENCH_PIN=0 turns it
// off; BENCH_CPU picks the core (default 0).
import { execFileSync } from 'node:child_process'
import os from 'node:os'

export function pinning() {
  if (process.env.BENCH_PIN === '0') return null
  let taskset
  try {
    taskset = execFileSync('sh', ['-c', 'command -v taskset'], { encoding: 'utf8' }).trim()
  } catch {
    return null
  }
  if (!taskset) return null
  const core = Number(process.env.BENCH_CPU || 0)
  const cores = os.availableParallelism ? os.availableParallelism() : os.cpus().length
  if (!Number.isInteger(core) || core < 0 || core >= cores) throw new Error(`BENCH_CPU=${process.env.BENCH_CPU}: this machine has cores 0..${cores - 1}`)
  return { command: taskset, args: ['-c', String(core)], core }
}
