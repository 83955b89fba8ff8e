/** Changing scheduled tasks; each mutation declares what it makes stale (every task read, on failure too: a refused run still moves the list on). */
import { useMutation } from '@tanstack/react-query';
import { createTask, deleteTask, runTaskNow, setTaskEnabled, updateTask, type TaskInput } from '../../api/index.ts';
import { taskKeys } from '../../api/queries/tasks.ts';

const meta = { invalidates: [taskKeys.all], invalidatesOnError: true };

export function useCreateTask(username: string) {
  return useMutation({ mutationFn: (input: TaskInput) => createTask(username, input), meta });
}

export function useUpdateTask(owner: string, taskId: string) {
  return useMutation({ mutationFn: (input: TaskInput) => updateTask(owner, taskId, input), meta });
}

export function useTaskAction() {
  return useMutation({
    mutationFn: ({ owner, id, action }: { owner: string; id: string; action: 'enable' | 'disable' | 'delete' | 'run' }) =>
      action === 'delete' ? deleteTask(owner, id) : action === 'run' ? runTaskNow(owner, id) : setTaskEnabled(owner, id, action === 'enable'),
    meta,
  });
}
