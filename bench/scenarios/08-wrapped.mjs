// hello world with a function in front of the app as the server's listener,
// `(req, res) => app(req, res)` (serverless adapters, custom routing, a server
// shared with another handler): the app cannot adopt the server, so every
// request and response has its prototype swapped, as Express does for every request
export default {
  name: 'hello world behind a wrapper',
  request: { path: '/' },
  switchyard: (fw) => { const app = fw(); app.get('/', (req, res) => { res.send('Hello World') }); return (req, res) => app(req, res) },
  express: (express) => { const app = express(); app.get('/', (req, res) => { res.send('Hello World') }); return (req, res) => app(req, res) },
  fastify: (Fastify) => { const app = Fastify(); app.get('/', (req, reply) => { reply.type('text/html; charset=utf-8').send('Hello World') }); return app },
  // the floor swaps the prototypes as express@5's app.handle does
  floor: (f) => {
    const app = f.appPrototypes()
    return (req, res) => { f.swap(req, app.request); f.swap(res, app.response); f.sendExact(req, res, f.HTML, 'Hello World') }
  },
  node: () => (req, res) => { res.setHeader('Content-Type', 'text/html; charset=utf-8'); res.end('Hello World') }
}
