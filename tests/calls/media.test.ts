import { describe, expect, test } from "bun:test";
import { capVideoSenders } from "../../islands/media/bitrate.ts";
import {
  CALL_MEDIA_CONSTRAINTS,
  FALLBACK_MEDIA_CONSTRAINTS,
  mediaSupported,
  openCameraAndMicrophone,
} from "../../islands/media/constraints.ts";
import { callMediaErrorText, rouletteMediaErrorText, UNSUPPORTED_BROWSER_ALERT } from "../../islands/media/errors.ts";
import { fakeStream } from "./fakes.ts";

const domError = (name: string, message = "boom") => Object.assign(new Error(message), { name });

describe("camera constraints (spec section 9)", () => {
  test("ask for 1280x720 (at most 1920x1080), 30 fps (at most 60), the front camera", () => {
    expect(CALL_MEDIA_CONSTRAINTS.video).toEqual({
      width: { ideal: 1280, max: 1920 },
      height: { ideal: 720, max: 1080 },
      frameRate: { ideal: 30, max: 60 },
      facingMode: "user",
    });
  });

  test("ask for echo cancellation, noise suppression, auto gain and 48 kHz", () => {
    expect(CALL_MEDIA_CONSTRAINTS.audio).toEqual({
      echoCancellation: true,
      noiseSuppression: true,
      autoGainControl: true,
      sampleRate: 48000,
    });
  });

  test("the fallback asks for 640x480 at 15 fps", () => {
    expect(FALLBACK_MEDIA_CONSTRAINTS.video).toMatchObject({ width: 640, height: 480, frameRate: 15 });
  });

  test("a refused permission is not asked a second time", async () => {
    const asked: MediaStreamConstraints[] = [];
    const attempt = openCameraAndMicrophone(async (c) => {
      asked.push(c);
      throw domError("NotAllowedError");
    });
    await expect(attempt).rejects.toThrow("boom");
    expect(asked).toHaveLength(1);
  });

  test("any other failure tries the fallback and reports its error", async () => {
    const asked: MediaStreamConstraints[] = [];
    const attempt = openCameraAndMicrophone(async (c) => {
      asked.push(c);
      throw domError(asked.length === 1 ? "OverconstrainedError" : "NotFoundError", `attempt ${asked.length}`);
    });
    await expect(attempt).rejects.toThrow("attempt 2");
    expect(asked).toEqual([CALL_MEDIA_CONSTRAINTS, FALLBACK_MEDIA_CONSTRAINTS]);
  });

  test("a browser without navigator.mediaDevices is not supported", () => {
    expect(mediaSupported(undefined)).toBe(false);
    expect(mediaSupported({ mediaDevices: {} as MediaDevices })).toBe(false);
    const stream = fakeStream().stream;
    expect(mediaSupported({ mediaDevices: { getUserMedia: async () => stream } as unknown as MediaDevices })).toBe(true);
  });
});

describe("camera and microphone error texts (spec section 8)", () => {
  test("the unsupported-browser alert is in Russian and names modern browsers", () => {
    expect(UNSUPPORTED_BROWSER_ALERT).toContain("не поддерживает видеозвонки");
    expect(UNSUPPORTED_BROWSER_ALERT).toContain("современный браузер");
  });

  test("calls: blocked, not found, in use, anything else with its message", () => {
    expect(callMediaErrorText(domError("NotAllowedError"))).toContain("allow access to the camera and microphone");
    expect(callMediaErrorText(domError("NotAllowedError"))).toContain("refresh the page");
    expect(callMediaErrorText(domError("NotFoundError"))).toBe(
      "Camera or microphone not found. Please check that they are connected and try again.",
    );
    expect(callMediaErrorText(domError("NotReadableError"))).toBe(
      "The camera or microphone is in use by another application. Close it and try again.",
    );
    expect(callMediaErrorText(domError("TypeError", "bad constraints"))).toBe("Media device access error: bad constraints");
  });

  test("roulette: the four texts of the spec", () => {
    expect(rouletteMediaErrorText(domError("NotAllowedError"))).toBe("Please allow camera and microphone access to use video chat");
    expect(rouletteMediaErrorText(domError("NotFoundError"))).toBe("No camera or microphone found on this device");
    expect(rouletteMediaErrorText(domError("NotReadableError"))).toBe("Camera or microphone is already in use by another application");
    expect(rouletteMediaErrorText("weird")).toBe("Camera and microphone access required for video chat");
  });
});

describe("video bitrate cap", () => {
  test("sets 800 kbit/s and 20 fps on video senders only", async () => {
    const applied: { kind: string; params: RTCRtpSendParameters }[] = [];
    const sender = (kind: string, encodings: RTCRtpEncodingParameters[]) => ({
      track: { kind } as MediaStreamTrack,
      getParameters: () => ({ encodings, transactionId: "t", codecs: [], headerExtensions: [], rtcp: {} }),
      setParameters: async (params: RTCRtpSendParameters) => void applied.push({ kind, params }),
    });
    const count = await capVideoSenders([sender("audio", [{}]), sender("video", []), sender("video", [{ active: true }])]);
    expect(count).toBe(2);
    expect(applied.map((a) => a.kind)).toEqual(["video", "video"]);
    for (const { params } of applied) expect(params.encodings[0]).toMatchObject({ maxBitrate: 800000, maxFramerate: 20 });
  });
});
