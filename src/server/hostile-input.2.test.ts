// Shard 2 of 3 of the hostile-input corpus (hostile-input.test-support.ts says why it is sharded).
import { describeHostileInput } from './hostile-input.test-support.ts';

describeHostileInput(1, 3);
