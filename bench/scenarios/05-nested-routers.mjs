// three nested routers with params: /api/:version/users/:uid/posts/:pid
function build(lib) {
  const app = lib()
  const api = lib.Router({ mergeParams: true })
  const users = lib.Router({ mergeParams: true })
  const posts = lib.Router({ mergeParams: true })
  posts.get('/:pid', (req, res) => { res.send(`${req.params.version} ${req.params.uid} ${req.params.pid}`) })
  users.use('/:uid/posts', posts)
  api.use('/users', users)
  app.use('/api/:version', api)
  return app
}
export default {
  name: 'three nested routers with params',
  request: { path: '/api/v1/users/42/posts/7' },
  switchyard: (fw) => build(fw),
  express: (express) => build(express),
  // fastify's routers are encapsulated plugins registered under a prefix; the
  // prefixes carry the params, as the mount paths do above.
  fastify: (Fastify) => {
    const app = Fastify()
    app.register(async (api) => {
      api.register(async (users) => {
        users.register(async (posts) => {
          posts.get('/:pid', (req, reply) => { reply.type('text/html; charset=utf-8').send(`${req.params.version} ${req.params.uid} ${req.params.pid}`) })
        }, { prefix: '/:uid/posts' })
      }, { prefix: '/users' })
    }, { prefix: '/api/:version' })
    return app
  },
  floor: (f) => (req, res) => {
    const m = /^\/api\/([^/]+)\/users\/([^/]+)\/posts\/([^/]+)$/.exec(req.url)
    f.sendExact(req, res, f.HTML, `${m[1]} ${m[2]} ${m[3]}`)
  },
  node: () => (req, res) => {
    const m = /^\/api\/([^/]+)\/users\/([^/]+)\/posts\/([^/]+)$/.exec(req.url)
    res.setHeader('Content-Type', 'text/html; charset=utf-8'); res.end(`${m[1]} ${m[2]} ${m[3]}`)
  }
}
