// The benchmark's peer for demo 5: the same 96-parameter pointer sorter, batch and Adam step written
// in plain JavaScript (never shipped; tests/bench/bench_trainer.py runs it in the page it measures).
// Model (H = 16): u_ij = v . tanh(A x_j + a0 + q_i), q_1 = s, q_i = B x_prev + b0; teacher forcing,
// mean cross-entropy over steps and batch, masked positions skipped, Adam (lr 0.01, beta 0.9/0.999).
// Parameters live in one Float64Array in the order A, a0, B, b0, s, v, like ptrnet's theta.
globalThis.SorterPeer = (() => {
  const H = 16;
  const [A, A0, B, B0, S, V] = [0, 1, 2, 3, 4, 5].map((k) => k * H);
  const MAX_N = 64;

  // Scratch reused by every sequence: tanh of one step (n x H), encodings (n x H), scores.
  const tanhs = new Float64Array(MAX_N * H);
  const enc = new Float64Array(MAX_N * H);
  const denc = new Float64Array(MAX_N * H);
  const scores = new Float64Array(MAX_N);
  const q = new Float64Array(H);
  const dq = new Float64Array(H);
  const order = new Int32Array(MAX_N);
  const blocked = new Uint8Array(MAX_N);

  // Positions of row x[off .. off+n) from smallest to largest (insertion sort, stable).
  function argsort(x, off, n) {
    for (let j = 0; j < n; j++) {
      let k = j;
      while (k > 0 && x[off + order[k - 1]] > x[off + j]) {
        order[k] = order[k - 1];
        k--;
      }
      order[k] = j;
    }
  }

  // Adds one sequence's loss gradient (scaled by `scale`) into grad; returns its summed cross-entropy.
  function sequence(theta, grad, x, off, n, mask, scale) {
    argsort(x, off, n);
    blocked.fill(0, 0, n);
    denc.fill(0, 0, n * H);
    for (let j = 0; j < n; j++) {
      for (let h = 0; h < H; h++) enc[j * H + h] = theta[A + h] * x[off + j] + theta[A0 + h];
    }
    let total = 0;
    for (let i = 0; i < n; i++) {
      const prev = i === 0 ? 0 : x[off + order[i - 1]];
      for (let h = 0; h < H; h++) q[h] = i === 0 ? theta[S + h] : theta[B + h] * prev + theta[B0 + h];
      let top = -Infinity;
      for (let j = 0; j < n; j++) {
        if (mask && blocked[j]) continue;
        let u = 0;
        for (let h = 0; h < H; h++) {
          const t = Math.tanh(enc[j * H + h] + q[h]);
          tanhs[j * H + h] = t;
          u += theta[V + h] * t;
        }
        scores[j] = u;
        if (u > top) top = u;
      }
      const target = order[i];
      const shiftedTarget = scores[target] - top;
      let z = 0;
      for (let j = 0; j < n; j++) {
        if (mask && blocked[j]) continue;
        scores[j] = Math.exp(scores[j] - top);
        z += scores[j];
      }
      total += Math.log(z) - shiftedTarget;
      // backward of this step: d loss / d u_j = (p_j - [j = target]) * scale
      dq.fill(0);
      for (let j = 0; j < n; j++) {
        if (mask && blocked[j]) continue;
        const du = (scores[j] / z - (j === target ? 1 : 0)) * scale;
        for (let h = 0; h < H; h++) {
          const t = tanhs[j * H + h];
          grad[V + h] += du * t;
          const d = du * theta[V + h] * (1 - t * t);
          denc[j * H + h] += d;
          dq[h] += d;
        }
      }
      for (let h = 0; h < H; h++) {
        if (i === 0) grad[S + h] += dq[h];
        else {
          grad[B + h] += dq[h] * prev;
          grad[B0 + h] += dq[h];
        }
      }
      blocked[target] = 1;
    }
    for (let j = 0; j < n; j++) {
      for (let h = 0; h < H; h++) {
        grad[A + h] += denc[j * H + h] * x[off + j];
        grad[A0 + h] += denc[j * H + h];
      }
    }
    return total;
  }

  // Mean teacher-forced cross-entropy of a (batch x n) row-major batch; writes its gradient into grad.
  function lossAndGrads(theta, grad, x, batch, n, mask) {
    grad.fill(0);
    const scale = 1 / (batch * n);
    let total = 0;
    for (let b = 0; b < batch; b++) total += sequence(theta, grad, x, b * n, n, mask, scale);
    return total * scale;
  }

  // A small seeded generator (mulberry32) for the data stream and the N(0, 0.1^2) start.
  function generator(seed) {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  class Trainer {
    constructor({ seed = 0, mask = true, batch = 32, minLen = 5, maxLen = 10, lr = 0.01 } = {}) {
      Object.assign(this, { mask, batch, minLen, maxLen, lr, beta1: 0.9, beta2: 0.999, eps: 1e-8 });
      this.random = generator(seed);
      this.theta = new Float64Array(6 * H);
      for (let k = 0; k < this.theta.length; k++) {
        const r = Math.sqrt(-2 * Math.log(1 - this.random()));
        this.theta[k] = 0.1 * r * Math.cos(2 * Math.PI * this.random());
      }
      this.grad = new Float64Array(6 * H);
      this.m = new Float64Array(6 * H);
      this.v = new Float64Array(6 * H);
      this.x = new Float64Array(batch * maxLen);
      this.iteration = 0;
    }

    // k iterations: draw a length and a batch, forward, backward, Adam; returns the last loss.
    train(k) {
      let loss = Number.NaN;
      for (let it = 0; it < k; it++) {
        const n = this.minLen + Math.floor(this.random() * (this.maxLen - this.minLen + 1));
        for (let i = 0; i < this.batch * n; i++) this.x[i] = this.random();
        loss = lossAndGrads(this.theta, this.grad, this.x, this.batch, n, this.mask);
        this.iteration += 1;
        const c1 = 1 - this.beta1 ** this.iteration;
        const c2 = 1 - this.beta2 ** this.iteration;
        for (let p = 0; p < this.theta.length; p++) {
          const g = this.grad[p];
          this.m[p] = this.beta1 * this.m[p] + (1 - this.beta1) * g;
          this.v[p] = this.beta2 * this.v[p] + (1 - this.beta2) * g * g;
          this.theta[p] -= (this.lr * (this.m[p] / c1)) / (Math.sqrt(this.v[p] / c2) + this.eps);
        }
      }
      return loss;
    }
  }

  return { H, lossAndGrads, Trainer };
})();
