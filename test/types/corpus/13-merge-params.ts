// Nested routers with mergeParams, the pattern of REST sub-resources.
import express, { Router } from 'switchyardjs'

const comments = Router({ mergeParams: true })
comments.get('/', (req, res) => {
  // the parent's :postId is merged in: params stay a dictionary
  res.json({ post: req.params.postId, comments: [] })
})
comments.get('/:commentId', (req, res) => {
  res.json({ post: req.params.postId, comment: req.params.commentId })
})

const posts = Router()
posts.use('/:postId/comments', comments)
posts.get('/:postId', (req, res) => {
  res.json({ id: req.params.postId })
})

const app = express()
app.use('/posts', posts)
