// POST a 1 KB JSON body through the json parser, answer with one field of it
const body = JSON.stringify({ items: Array.from({ length: 28 }, (_, i) => ({ id: i, name: 'item-' + i, ok: i % 2 === 0 })) })
const size = Buffer.byteLength(body)
if (size < 1000 || size > 1100) throw new Error('the JSON body should be about 1 KB, got ' + size)

function build(app, json) {
  app.use(json())
  app.post('/items', (req, res) => { res.send(String(req.body.items.length)) })
  return app
}

export default {
  name: 'POST 1 KB JSON',
  request: { method: 'POST', path: '/items', headers: { 'content-type': 'application/json' }, body },
  switchyard: (fw) => build(fw(), fw.json),
  express: (express) => build(express(), express.json),
  // fastify parses application/json itself (secure-json-parse), no plugin needed
  fastify: (Fastify) => {
    const app = Fastify()
    app.post('/items', (req, reply) => { reply.type('text/html; charset=utf-8').send(String(req.body.items.length)) })
    return app
  },
  floor: (f) => (req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => { f.sendExact(req, res, f.HTML, String(JSON.parse(Buffer.concat(chunks).toString('utf8')).items.length)) })
  },
  node: () => (req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      res.setHeader('Content-Type', 'text/html; charset=utf-8')
      res.end(String(parsed.items.length))
    })
  }
}
