// Writes the Keras grid's configurations with planKeras' prediction for each (interop/node/kerasGrid.ts),
// for interop/test_keras_memory.py to measure with TensorFlow.
import { cpu, writeAnswer } from './common';
import { planKerasGrid } from './kerasGrid';

await cpu();
writeAnswer(planKerasGrid());
