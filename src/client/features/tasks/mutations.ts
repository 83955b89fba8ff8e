import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createTask, deleteTask, runTaskNow, setTaskEnabled, updateTask, type TaskInput } from '../../api/index.ts';
import { taskKeys } from './queries.ts';

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: taskKeys.all });
}

export function useCreateTask(username: string) {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (input: TaskInput) => createTask(username, input), onSettled: invalidate });
}

export function useUpdateTask(owner: string, taskId: string) {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (input: TaskInput) => updateTask(owner, taskId, input), onSettled: invalidate });
}

export function useTaskAction() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ owner, id, action }: { owner: string; id: string; action: 'enable' | 'disable' | 'delete' | 'run' }) =>
      action === 'delete' ? deleteTask(owner, id) : action === 'run' ? runTaskNow(owner, id) : setTaskEnabled(owner, id, action === 'enable'),
    onSettled: invalidate,
  });
}
