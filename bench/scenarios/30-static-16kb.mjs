// static file: GET a 16 KB file through fw.static / express.static (send), with
// node:http streaming the same file (stat + read stream) as the ceiling.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import send from 'send'

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures')
const file = path.join(root, '16kb.txt')

export default {
  name: 'static 16 KB file',
  streams: true,
  request: { path: '/static/16kb.txt' },
  switchyard: (fw) => { const app = fw(); app.use('/static', fw.static(root)); return app },
  express: (express) => { const app = express(); app.use('/static', express.static(root)); return app },
  // @fastify/static (on @fastify/send, fastify's fork of send) under the same prefix
  fastify: (Fastify, plugins) => {
    const app = Fastify()
    app.register(plugins.static, { root, prefix: '/static/' })
    return app
  },
  // the floor: `send` itself, which serve-static and fw.static stream the file
  // with, behind Express's one header of its own
  floor: () => (req, res) => {
    res.setHeader('X-Powered-By', 'Switchyard')
    send(req, req.url.slice('/static'.length), { root }).pipe(res)
  },
  node: () => (req, res) => {
    fs.stat(file, (err, stat) => {
      if (err) { res.statusCode = 404; res.end(); return }
      res.setHeader('Content-Type', 'text/plain; charset=utf-8')
      res.setHeader('Content-Length', stat.size)
      fs.createReadStream(file).pipe(res)
    })
  }
}
