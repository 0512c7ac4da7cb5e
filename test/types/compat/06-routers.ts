// Routers: nesting, mergeParams, route(), param callbacks (also with arrays).
import express, { Router, type RequestParamHandler } from 'switchyardjs'

const app = express()
const users = Router()
const posts = Router({ mergeParams: true })

const loadNumber: RequestParamHandler = (req, res, next, value: string, name) => {
  if (!/^\d+$/.test(value)) return res.status(400).send(`${name} must be a number`)
  next()
}
app.param(['userId', 'postId'], loadNumber)
app.param('slug', (req, _res, next, slug: string) => {
  req.url = req.url.replace(slug, slug.toLowerCase())
  next()
})
users.param('userId', loadNumber)

users.get('/:userId', (req, res) => {
  res.json({ id: req.params.userId })
})
posts.get('/:postId', (req, res) => {
  // merged from the parent route '/users/:userId/posts'
  res.json({ user: req.params.userId, post: req.params.postId }) // @types/express differs: a mergeParams router sees its parent's params
})
users.use('/:userId/posts', posts)

users
  .route('/:userId/avatar')
  .get((req, res) => { res.sendFile(`/avatars/${req.params.userId}.png`) })
  .put(express.raw({ type: 'image/*', limit: '5mb' }), (req, res) => {
    const size: number = Buffer.isBuffer(req.body) ? req.body.length : 0
    res.json({ size })
  })
  .delete((_req, res) => { res.sendStatus(204) })

const v1 = express.Router()
v1.use('/users', users)
app.use('/v1', v1)
app.use(['/a', '/b'], (_req, _res, next) => next())
app.get(/^\/legacy\/(\d+)$/, (req, res) => { res.send(req.params[0]) })
