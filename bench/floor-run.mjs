// npm run bench:floor [-- filter] : for every scenario with a `floor` builder
// (bench/floor.mjs: bare node:http giving express@5's exact answer with the
// least work), first checks that the floor's answer is Switchyard's byte for
// byte (status line, headers in order, body; the Date header aside), then
// measures in pairs, as bench:pairs does:
//   fastify/floor  below 1: fastify@5 answers for less CPU than the floor, so
//                  no server giving Express's answer through Node's public
//                  API reaches fastify in that scenario;
//   floor/sy       how close Switchyard is to the floor (1 = no cost above it);
//   express/floor  the most any server giving Express's answer through Node's
//                  public API can be ahead of express@5 in that scenario.
// Environment: PAIRS_COUNT, PAIRS_SECONDS and the BENCH_ variables, as for
// bench:pairs.
import net from 'node:net'
import { scenarios, startServer, runtime } from './run.mjs'
import { pairs, summary, median } from './pairs.mjs'

/** The raw bytes of the answer to one request over a keep-alive connection, without its Date line. */
function rawAnswer(port, req) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    const body = req.body === undefined ? '' : req.body
    const headers = { host: `127.0.0.1:${port}`, ...req.headers }
    if (body !== '') headers['content-length'] = String(Buffer.byteLength(body))
    let head = `${req.method || 'GET'} ${req.path} HTTP/1.1\r\n`
    for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`
    socket.write(head + '\r\n' + body)
    let got = Buffer.alloc(0)
    socket.on('data', (chunk) => {
      got = Buffer.concat([got, chunk])
      const end = got.indexOf('\r\n\r\n')
      if (end === -1) return
      const length = /\r\ncontent-length: (\d+)/i.exec(got.subarray(0, end).toString('latin1'))
      if (length && got.length < end + 4 + Number(length[1])) return
      socket.destroy()
      resolve(got.toString('latin1').replace(/\r\nDate: [^\r]*/, ''))
    })
    socket.on('error', reject)
    setTimeout(() => { socket.destroy(); reject(new Error(`no complete answer from port ${port}`)) }, 5000).unref()
  })
}

async function sameAnswer(file, req) {
  const servers = [await startServer(file, 'switchyard'), await startServer(file, 'floor')]
  try {
    const [mine, floor] = await Promise.all(servers.map((s) => rawAnswer(s.port, req)))
    return mine === floor ? null : { mine, floor }
  } finally {
    for (const s of servers) {
      s.child.removeAllListeners('exit')
      s.child.kill()
    }
  }
}

const rows = []
const found = (await scenarios(process.argv[2])).filter(({ scenario }) => scenario.floor)
console.log(`floor: ${runtime}`)
for (const { file, scenario } of found) {
  const differs = await sameAnswer(file, scenario.request)
  if (differs) {
    console.error(`${scenario.name}: the floor's answer is not Switchyard's\n--- switchyard\n${differs.mine}\n--- floor\n${differs.floor}`)
    process.exitCode = 1
    continue
  }
  const fastify = await pairs(file, scenario.request, 'fastify', 'floor')
  const mine = await pairs(file, scenario.request, 'floor', 'switchyard')
  const express = await pairs(file, scenario.request, 'express', 'floor')
  const row = { scenario: scenario.name, fastify: summary(fastify.ratios), mine: summary(mine.ratios), express: summary(express.ratios) }
  console.log(`${scenario.name}: fastify ${median(fastify.us.other).toFixed(1)} µs, floor ${median(fastify.us.base).toFixed(1)} µs; floor ${median(mine.us.other).toFixed(1)} µs, switchyard ${median(mine.us.base).toFixed(1)} µs (medians); fastify/floor ${row.fastify}, floor/sy ${row.mine}, express/floor ${row.express}`)
  rows.push(row)
}
console.log('\nCPU per request ratios, median of the pairs (range, pairs above 1). fastify/floor < 1: fastify is ahead of the cheapest exact answer. floor/sy: 1 = Switchyard costs what the floor costs. express/floor: the most an exact server can be ahead of express@5.\n')
console.log('| scenario | cpu fastify/floor | cpu floor/sy | cpu express/floor |')
console.log('|---|---:|---:|---:|')
for (const row of rows) console.log(`| ${row.scenario} | ${row.fastify} | ${row.mine} | ${row.express} |`)
