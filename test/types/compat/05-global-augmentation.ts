// The global Express namespace, as passport, multer and auth middleware use it.
import express from 'switchyardjs'

interface Account { id: number; email: string; admin: boolean }

declare global {
  namespace Express {
    interface Request {
      account?: Account
    }
    interface Locals {
      nonce?: string
    }
  }
}

const app = express()

const requireAdmin: express.RequestHandler = (req, res, next) => {
  if (!req.account?.admin) return res.status(403).end()
  next()
}

app.use((req, res, next) => {
  res.locals.nonce = Math.random().toString(36)
  req.account = { id: 1, email: 'a@example.com', admin: req.get('x-admin') === '1' }
  next()
})
app.get('/admin', requireAdmin, (req, res) => {
  res.send(`${req.account!.email} ${res.locals.nonce}`)
})
app.locals.nonce = 'app-wide'
