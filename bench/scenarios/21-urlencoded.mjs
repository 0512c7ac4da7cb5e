// POST a small form through the urlencoded parser, answer with one field of it
import { parse } from 'node:querystring'

const body = 'name=Ada+Lovelace&email=ada%40example.com&role=admin&tags=math&tags=engines&remember=on'

function build(app, urlencoded) {
  app.use(urlencoded())
  app.post('/login', (req, res) => { res.send(req.body.name) })
  return app
}

export default {
  name: 'POST small urlencoded form',
  request: { method: 'POST', path: '/login', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body },
  switchyard: (fw) => build(fw(), fw.urlencoded),
  express: (express) => build(express(), express.urlencoded),
  // fastify parses forms with its official plugin, @fastify/formbody
  fastify: (Fastify, plugins) => {
    const app = Fastify()
    app.register(plugins.formbody)
    app.post('/login', (req, reply) => { reply.type('text/html; charset=utf-8').send(req.body.name) })
    return app
  },
  floor: (f) => (req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => { f.sendExact(req, res, f.HTML, parse(Buffer.concat(chunks).toString('utf8')).name) })
  },
  node: () => (req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const parsed = parse(Buffer.concat(chunks).toString('utf8'))
      res.setHeader('Content-Type', 'text/html; charset=utf-8')
      res.end(parsed.name)
    })
  }
}
