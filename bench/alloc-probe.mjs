// The server side of `npm run bench:alloc` (bench/alloc.mjs): loaded by
// bench/server.mjs on its first "gc-start" or "alloc-start" question, never
// otherwise.
//
// allocation('gc-start') starts a PerformanceObserver for garbage
// collections; allocation('alloc-start') starts V8's sampling heap profiler
// (through node:inspector, in this process) instead; allocation('stop') stops
// what runs and returns what it saw: the collections by kind with their pause
// time, or the bytes sampled (an estimate of everything allocated in between,
// since objects that young and full collections reclaimed are kept in the
// sample) and the bytes by the function that allocated them (the JavaScript
// frame on top of the stack, as `name file:line`). The two are measured apart
// because the profiler slows the collector down.
import inspector from 'node:inspector'
import { PerformanceObserver, constants } from 'node:perf_hooks'

const session = new inspector.Session()
session.connect()
const post = (method, params = {}) => new Promise((resolve, reject) => {
  session.post(method, params, (err, result) => (err ? reject(err) : resolve(result)))
})

/** One sampled byte every `interval` on average: small enough for a few hundred bytes per request to show. */
const interval = Number(process.env.ALLOC_INTERVAL || 256)
let observer
let gcs
let sampling = false

export async function allocation(what) {
  if (what === 'gc-start') {
    gcs = { minor: 0, major: 0, other: 0, pauseMs: 0 }
    observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const kind = entry.detail?.kind
        if (kind === constants.NODE_PERFORMANCE_GC_MINOR) gcs.minor++
        else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) gcs.major++
        else gcs.other++
        gcs.pauseMs += entry.duration
      }
    })
    observer.observe({ entryTypes: ['gc'] })
    return { started: true }
  }
  if (what === 'alloc-start') {
    sampling = true
    await post('HeapProfiler.enable')
    await post('HeapProfiler.startSampling', {
      samplingInterval: interval,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true
    })
    return { started: true }
  }
  if (!sampling) {
    // let the observer see the last collections before it goes
    await new Promise((resolve) => setImmediate(resolve))
    observer.disconnect()
    return { gcs }
  }
  sampling = false
  const { profile } = await post('HeapProfiler.stopSampling')
  const byFunction = new Map()
  let total = 0
  const walk = (node) => {
    if (node.selfSize > 0) {
      const { functionName, url, lineNumber } = node.callFrame
      const where = url ? `${url.replace(/^.*\/(node_modules\/)?/, '')}:${lineNumber + 1}` : '(native)'
      const key = `${functionName || '(anonymous)'} ${where}`
      byFunction.set(key, (byFunction.get(key) || 0) + node.selfSize)
      total += node.selfSize
    }
    for (const child of node.children) walk(child)
  }
  walk(profile.head)
  const top = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 40)
  return { bytes: total, top }
}
