// A router module: the pattern of `routes/users.ts` mounted by the main app.
import express, { Router, type Request, type Response } from 'switchyardjs'

interface UserDto {
  id: string
  name: string
}

const users = new Map<string, UserDto>()

export const usersRouter = Router()

usersRouter.get('/', (_req: Request, res: Response<UserDto[]>) => {
  res.json([...users.values()])
})

usersRouter.get('/:id', (req, res) => {
  const user = users.get(req.params.id)
  if (!user) return res.status(404).json({ error: 'not found' })
  res.json(user)
})

usersRouter.delete('/:id', (req, res) => {
  users.delete(req.params.id)
  res.sendStatus(204)
})

const app = express()
app.use(express.json())
app.use('/users', usersRouter)
export default app
