/** An output shape with its batch dimension first. */
export const shapeText = (shape: readonly number[]) => ['batch', ...shape].join(' × ');
