// A raw-socket HTTP/1.1 client for the fuzzer: writes a batch of requests in
// one go (pipelined) and parses the responses off the wire itself, so nothing
// normalises what is sent and every byte that comes back is accounted for.
import net from 'node:net'

/** A persistent connection to one server, reopened when the server closes it. */
export class Lane {
  constructor(port) {
    this.port = port
    this.socket = null
  }

  close() {
    if (this.socket) this.socket.destroy()
    this.socket = null
  }

  /**
   * Send `requests` (each `{ seq, method, bytes }`) pipelined; resolve with one
   * result per request: `{ status, seq, close }` (status 0: no response before
   * the connection closed) and `{ hang, desync, junk }` flags for the batch.
   */
  exchange(requests, timeoutMs = 5000) {
    return new Promise((resolve) => {
      const fresh = this.socket === null
      const socket = fresh ? net.connect(this.port, '127.0.0.1') : this.socket
      this.socket = socket
      socket.setNoDelay(true)
      const results = []
      let buf = Buffer.alloc(0)
      let done = false
      let desync = null
      let junk = false
      let untilClose = null

      const finish = (hang) => {
        if (done) return
        done = true
        clearTimeout(timer)
        socket.removeListener('data', onData)
        socket.removeListener('close', onClose)
        socket.removeListener('error', onError)
        while (results.length < requests.length) results.push({ status: 0, seq: undefined, close: true })
        const last = results[results.length - 1]
        if (hang || last.status === 0 || last.close || socket.destroyed) this.close()
        if (buf.length > 0 && !hang) junk = true
        resolve({ results, hang, desync, junk })
      }
      const onError = () => {}
      const onClose = () => {
        if (untilClose) { results.push(untilClose); untilClose = null; buf = Buffer.alloc(0) }
        finish(false)
      }
      const onData = (chunk) => {
        if (untilClose !== null) return
        buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk])
        parse()
      }
      const parse = () => {
        while (!done && untilClose === null) {
          const end = buf.indexOf('\r\n\r\n')
          if (end === -1) return
          const head = buf.subarray(0, end).toString('latin1')
          const lines = head.split('\r\n')
          const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0])
          if (!m) { junk = true; this.close(); finish(false); return }
          const status = Number(m[1])
          const headers = {}
          for (let i = 1; i < lines.length; i++) {
            const at = lines[i].indexOf(':')
            if (at > 0) headers[lines[i].slice(0, at).trim().toLowerCase()] = lines[i].slice(at + 1).trim()
          }
          let rest = buf.subarray(end + 4)
          if (status >= 100 && status < 200) { buf = rest; continue }
          const req = requests[results.length]
          if (req === undefined) { junk = true; buf = rest; this.close(); finish(false); return }
          const result = { status, seq: headers['x-seq'], close: /close/i.test(headers.connection ?? '') }
          if (result.seq !== undefined && result.seq !== String(req.seq) && desync === null) desync = { expected: req.seq, got: result.seq }
          let bodyLength
          if (req.method === 'HEAD' || status === 204 || status === 304) bodyLength = 0
          else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
            bodyLength = chunkedLength(rest)
            if (bodyLength === -1) return
          } else if (headers['content-length'] !== undefined) bodyLength = Number(headers['content-length'])
          else { untilClose = result; buf = Buffer.alloc(0); return }
          if (rest.length < bodyLength) return
          buf = rest.subarray(bodyLength)
          results.push(result)
          if (results.length === requests.length) { finish(false); return }
        }
      }
      const timer = setTimeout(() => finish(true), timeoutMs)
      socket.on('data', onData)
      socket.on('close', onClose)
      socket.on('error', onError)
      socket.write(Buffer.concat(requests.map((r) => r.bytes)))
    })
  }
}

/** Total length of a complete chunked body at the start of `buf`, or -1 if incomplete. */
function chunkedLength(buf) {
  let at = 0
  for (;;) {
    const eol = buf.indexOf('\r\n', at)
    if (eol === -1) return -1
    const size = parseInt(buf.subarray(at, eol).toString('latin1'), 16)
    if (Number.isNaN(size)) return -1
    at = eol + 2
    if (size === 0) {
      // trailers, then an empty line
      for (;;) {
        const e = buf.indexOf('\r\n', at)
        if (e === -1) return -1
        if (e === at) return at + 2
        at = e + 2
      }
    }
    at += size + 2
    if (at > buf.length) return -1
  }
}
