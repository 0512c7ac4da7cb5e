// Request augmentation, as passport and hand-written auth middleware do it.
import express, { type NextFunction, type Request, type Response } from 'switchyardjs'

export interface SessionUser {
  id: string
  email: string
  roles: ReadonlyArray<'admin' | 'editor' | 'viewer'>
}

declare global {
  namespace Express {
    interface Request {
      user?: SessionUser
      requestId: string
    }
  }
}

function authenticate(req: Request, res: Response, next: NextFunction) {
  const token = req.get('authorization')?.replace(/^Bearer /, '')
  if (!token) return res.status(401).json({ error: 'unauthenticated' })
  req.user = { id: token, email: `${token}@example.com`, roles: ['viewer'] }
  next()
}

function requireRole(role: SessionUser['roles'][number]) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!req.user?.roles.includes(role)) return res.sendStatus(403)
    next()
  }
}

const app = express()
app.use((req, _res, next) => {
  req.requestId = Math.random().toString(36).slice(2)
  next()
})
app.get('/me', authenticate, (req, res) => {
  res.json({ user: req.user, requestId: req.requestId })
})
app.delete('/posts/:id', authenticate, requireRole('admin'), (req, res) => {
  res.json({ deleted: req.params.id, by: req.user!.email })
})
