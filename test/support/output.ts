// What the libraries print by design, caught in the tests that cause it so
// that those tests assert on it and `npm test` prints none of it: depd's
// deprecation warnings, and the lines the default error handlers log with
// console.error. Output no test expects still reaches stderr.
import { format } from 'node:util'
import { afterAll, beforeAll, vi } from 'vitest'

/** Which library gave a warning: express for express@5 and router@2, switchyard otherwise. */
function origin(stack: string): string {
  return /[\\/]node_modules[\\/](express|router)[\\/]/.test(stack) ? 'express' : 'switchyard'
}

/**
 * depd's deprecation warnings given while the tests of the calling describe
 * block run, as `<library> <namespace>: <message>`. A 'deprecation' listener
 * on process makes depd hand a warning over instead of printing it; one whose
 * message is not in `expected` is printed all the same. depd warns once per
 * call site per process, so a test asks whether a warning has been given in
 * the block so far, not in that test alone.
 */
export function deprecationsIn(expected: string[]): string[] {
  const given: string[] = []
  const listener = (err: Error & { namespace?: string }) => {
    const stack = String(err.stack)
    if (expected.includes(err.message)) given.push(`${origin(stack)} ${err.namespace}: ${err.message}`)
    else process.stderr.write(`${err.namespace} deprecated ${err.message}${stack.slice(stack.indexOf('\n'))}\n`)
  }
  beforeAll(() => { process.on('deprecation', listener) })
  afterAll(() => { process.off('deprecation', listener) })
  return given
}

/**
 * Run `run` with console.error recorded instead of printed, wait for
 * `count` calls (the default error handlers log from a setImmediate, so a
 * line can come after the answer did), and return each call's first line.
 */
export async function consoleErrors(count: number, run: () => Promise<unknown>): Promise<string[]> {
  const spy = vi.spyOn(console, 'error').mockImplementation(() => {})
  try {
    await run()
    for (let i = 0; i < 200 && spy.mock.calls.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 5))
    // (one more turn: a call too many shows in the result)
    await new Promise((resolve) => setTimeout(resolve, 5))
    return spy.mock.calls.map((args) => format(...args).split('\n')[0])
  } finally {
    spy.mockRestore()
  }
}
