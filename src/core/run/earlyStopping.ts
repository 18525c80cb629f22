/**
 * Keras' EarlyStopping(monitor='val_loss', patience, min_delta=0): stop once the monitored value has
 * not improved for `patience` consecutive epochs. NaN never counts as an improvement.
 */
export class EarlyStopping {
  private best = Number.POSITIVE_INFINITY;
  private wait = 0;

  constructor(private readonly patience: number) {}

  /** Records an epoch's val_loss; true when training should stop now. */
  update(valLoss: number): boolean {
    if (valLoss < this.best) {
      this.best = valLoss;
      this.wait = 0;
      return false;
    }
    this.wait++;
    return this.wait >= this.patience;
  }

  /** Best val_loss seen so far (Infinity before any). */
  get bestValue(): number {
    return this.best;
  }
}
