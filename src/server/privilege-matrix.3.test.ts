// Shard 3 of 3 of the generated privilege matrix (privilege-matrix.test-support.ts says why it is sharded).
import { describePrivilegeMatrix } from './privilege-matrix.test-support.ts';

describePrivilegeMatrix(2, 3);
