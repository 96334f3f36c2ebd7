// MobileNetV2's input side. Kept apart from model.ts so the page can scale frames without
// importing TensorFlow.js.
export const MODEL_SIDE_PX = 224;
