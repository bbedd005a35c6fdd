// One thread of PaddleReader's pool: it holds the two PaddleOCR ONNX sessions (detection and
// recognition) and runs them for the main thread. onnxruntime-node's `run` computes on the thread
// that calls it, so run there it would stop the server's event loop for the length of each model
// run and let only one receipt be read at a time. Plain JavaScript: a worker thread is started
// by Node itself, without the TypeScript loader of the code that starts it.
import { parentPort, workerData } from 'node:worker_threads';
import { InferenceSession, Tensor } from 'onnxruntime-node';

/** @type {import('onnxruntime-node').InferenceSession.SessionOptions} */
const options = {
  intraOpNumThreads: workerData.threads,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
};

const sessions = {
  detection: await InferenceSession.create(workerData.detectionPath, options),
  recognition: await InferenceSession.create(workerData.recognitionPath, options),
};

/**
 * A job: `{ model: 'detection' | 'recognition', data: Float32Array, dims: number[] }`; a thread
 * takes one at a time. The answer: `{ data: Float32Array, dims: number[] }`, or `{ error: string }`.
 */
parentPort.on('message', async (job) => {
  try {
    const session = sessions[job.model];
    const input = new Tensor('float32', job.data, job.dims);
    const outputs = await session.run({ [session.inputNames[0]]: input });
    const output = outputs[session.outputNames[0]];
    parentPort.postMessage({ data: output.data, dims: output.dims });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});

parentPort.postMessage({ ready: true });
