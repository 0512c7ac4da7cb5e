// Fixed inputs found while building and running the fuzzer. Each one is sent
// as raw bytes to the fuzz app on switchyard; the answers must stay well framed.
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM modules without types, shared with the CLI
import { buildApp, implementations } from './app.mjs'
// @ts-expect-error plain ESM module without types
import { Lane } from './client.mjs'
// @ts-expect-error plain ESM module without types
import { batch } from './generate.mjs'

let server: http.Server
let port: number
beforeAll(async () => {
  server = http.createServer(buildApp(implementations().switchyard))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as any).port
})
afterAll(async () => { server.closeAllConnections(); await new Promise((r) => server.close(r)) })

const req = (seq: number, text: string, method = 'GET') => ({ seq, method, bytes: Buffer.from(text.replace('{seq}', String(seq)), 'latin1') })

async function exchange(reqs: any[]) {
  const lane = new Lane(port)
  try { return await lane.exchange(reqs, 5000) } finally { lane.close() }
}

describe('fuzz regressions (fixed inputs)', () => {
  it('Expect: 100-continue on pipelined requests: each 100 Continue comes between responses, never inside one', async () => {
    // express@5 on Node 20 writes the 100 Continue of the third request between
    // that response's head and its body; switchyard's single write keeps it whole
    const out = await exchange([
      req(1, 'GET /missing HTTP/1.1\r\nHost: x\r\nX-Seq: {seq}\r\n\r\n'),
      req(2, 'GET /static/todo.txt HTTP/1.1\r\nHost: x\r\nX-Seq: {seq}\r\nExpect: 100-continue\r\n\r\n'),
      req(3, 'GET /users/1 HTTP/1.1\r\nHost: x\r\nX-Seq: {seq}\r\nExpect: 100-continue\r\n\r\n')
    ])
    expect(out.hang).toBe(false)
    expect(out.desync).toBeNull()
    expect(out.junk).toBe(false)
    expect(out.results.map((r: any) => [r.status, r.seq])).toEqual([[404, '1'], [200, '2'], [200, '3']])
  })

  it('a parse error after pipelined requests closes the connection with a 400, never a desync', async () => {
    const out = await exchange([
      req(1, 'GET /users/1 HTTP/1.1\r\nHost: x\r\nX-Seq: {seq}\r\n\r\n'),
      req(2, 'PUT /body/simple HTTP/1.1\r\nHost: x\r\nX-Seq: {seq}\r\nX-A: \x7f\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n', 'PUT'),
      req(3, 'GET /users/3 HTTP/1.1\r\nHost: x\r\nX-Seq: {seq}\r\n\r\n')
    ])
    expect(out.hang).toBe(false)
    expect(out.desync).toBeNull()
    expect(out.junk).toBe(false)
    expect(out.results[2].status).toBe(0)
  })

  it('a 12 KB path of stray % under a *splat route answers 400, the connection stays usable', async () => {
    const out = await exchange([
      req(1, 'GET /files/' + '%'.repeat(12000) + ' HTTP/1.1\r\nHost: x\r\nX-Seq: {seq}\r\n\r\n'),
      req(2, 'GET /files/a/b HTTP/1.1\r\nHost: x\r\nX-Seq: {seq}\r\n\r\n')
    ])
    expect(out.results.map((r: any) => [r.status, r.seq])).toEqual([[400, '1'], [200, '2']])
  })

  it('the generator is deterministic: a seed and batch index always give the same bytes', () => {
    const a = batch(1, 123, 0).map((r: any) => r.bytes.toString('latin1'))
    const b = batch(1, 123, 0).map((r: any) => r.bytes.toString('latin1'))
    expect(a).toEqual(b)
    expect(batch(2, 123, 0).map((r: any) => r.bytes.toString('latin1'))).not.toEqual(a)
  })
})
