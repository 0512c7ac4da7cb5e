// 100 pass-through middlewares in front of one route
function build(app) {
  for (let i = 0; i < 100; i++) app.use((req, res, next) => { next() })
  app.get('/', (req, res) => { res.send('ok') })
  return app
}
export default {
  name: '100 pass-through middlewares',
  request: { path: '/' },
  switchyard: (fw) => build(fw()),
  express: (express) => build(express()),
  // fastify has no middleware chain of its own (that takes @fastify/middie); its
  // idiomatic equivalent of a pass-through middleware is an onRequest hook.
  fastify: (Fastify) => {
    const app = Fastify()
    for (let i = 0; i < 100; i++) app.addHook('onRequest', (req, reply, done) => { done() })
    app.get('/', (req, reply) => { reply.type('text/html; charset=utf-8').send('ok') })
    return app
  },
  floor: (f) => {
    const mws = Array.from({ length: 100 }, () => (req, res, next) => next())
    return (req, res) => {
      let i = 0
      const next = () => { if (i < mws.length) mws[i++](req, res, next); else f.sendExact(req, res, f.HTML, 'ok') }
      next()
    }
  },
  node: () => {
    const mws = Array.from({ length: 100 }, () => (req, res, next) => next())
    return (req, res) => {
      let i = 0
      const next = () => { if (i < mws.length) mws[i++](req, res, next); else { res.setHeader('Content-Type', 'text/html; charset=utf-8'); res.end('ok') } }
      next()
    }
  }
}
