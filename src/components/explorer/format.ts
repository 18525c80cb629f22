/** A count with thousands separators. */
export const count = (n: number) => n.toLocaleString('en-US');
/** An output shape with its batch dimension first. */
export const shapeText = (shape: readonly number[]) => ['batch', ...shape].join(' × ');
