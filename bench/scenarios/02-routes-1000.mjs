// 1,000 static routes, the last one hit
function build(app) {
  for (let i = 0; i < 1000; i++) app.get(`/route/${i}/item`, (req, res) => { res.send('route ' + i) })
  return app
}
export default {
  name: '1000 static routes (last hit)',
  request: { path: '/route/999/item' },
  switchyard: (fw) => build(fw()),
  express: (express) => build(express()),
  fastify: (Fastify) => {
    const app = Fastify()
    for (let i = 0; i < 1000; i++) app.get(`/route/${i}/item`, (req, reply) => { reply.type('text/html; charset=utf-8').send('route ' + i) })
    return app
  },
  floor: (f) => {
    const table = new Map()
    for (let i = 0; i < 1000; i++) table.set(`/route/${i}/item`, 'route ' + i)
    return (req, res) => { f.sendExact(req, res, f.HTML, table.get(req.url)) }
  },
  node: () => {
    const table = new Map()
    for (let i = 0; i < 1000; i++) table.set(`/route/${i}/item`, 'route ' + i)
    return (req, res) => { const b = table.get(req.url); res.setHeader('Content-Type', 'text/html; charset=utf-8'); res.end(b) }
  }
}
