// a sub-app mounted on /api: the request enters another app, whose prototypes
// it takes for its part of the request (fastify: a plugin with a prefix)
export default {
  name: 'sub-app mounted on /api',
  request: { path: '/api/hello' },
  switchyard: (fw) => { const app = fw(); const sub = fw(); sub.get('/hello', (req, res) => { res.send('Hello World') }); app.use('/api', sub); return app },
  express: (express) => { const app = express(); const sub = express(); sub.get('/hello', (req, res) => { res.send('Hello World') }); app.use('/api', sub); return app },
  fastify: (Fastify) => { const app = Fastify(); app.register(async (f) => { f.get('/hello', (req, reply) => { reply.type('text/html; charset=utf-8').send('Hello World') }) }, { prefix: '/api' }); return app },
  // the floor: requests built with the parent app's prototypes (an adopted
  // server), swapped to the sub-app's as express@5's mounted app does
  floor: (f) => {
    const app = f.appPrototypes()
    const sub = f.appPrototypes(app)
    const handler = (req, res) => { f.swap(req, sub.request); f.swap(res, sub.response); f.sendExact(req, res, f.HTML, 'Hello World') }
    handler.serverOptions = f.adopted(app)
    return handler
  },
  node: () => (req, res) => { res.setHeader('Content-Type', 'text/html; charset=utf-8'); res.end('Hello World') }
}
