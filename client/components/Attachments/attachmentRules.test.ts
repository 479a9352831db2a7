import { describe, expect, it } from "vitest";
import { ATTACHMENT_TOO_LARGE_MESSAGE } from "../../../common/schemas/storage.js";
import { attachmentSizeError, isPreviewable, withAttachment, withoutAttachment } from "./attachmentRules.js";

const plan = { original_file_name: "plan.png", uuid_file_name: "0b4e7a0e-5b1c-4f1e-9d4e-1a2b3c4d5e6f.png" };
const notes = { original_file_name: "notes.txt", uuid_file_name: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d.txt" };

describe("attachments of a requirement", () => {
  it("previews png, jpeg and jpg images only, whatever the case of the extension", () => {
    expect(isPreviewable("plan.png")).toBe(true);
    expect(isPreviewable("photo.JPEG")).toBe(true);
    expect(isPreviewable("scan.final.jpg")).toBe(true);
    expect(isPreviewable("drawing.gif")).toBe(false);
    expect(isPreviewable("notes.txt")).toBe(false);
    expect(isPreviewable("png")).toBe(false);
    expect(isPreviewable("archive.png.zip")).toBe(false);
  });

  it("accepts files up to 25 MB (26214400 bytes) and refuses larger ones with the spec's message", () => {
    expect(attachmentSizeError(0)).toBeUndefined();
    expect(attachmentSizeError(26214400)).toBeUndefined();
    expect(attachmentSizeError(26214401)).toBe(ATTACHMENT_TOO_LARGE_MESSAGE);
    expect(ATTACHMENT_TOO_LARGE_MESSAGE).toBe("Error adding attachment: File size cannot exceed 25MB");
  });

  it("adds an upload after the existing attachments, once", () => {
    expect(withAttachment([notes], plan)).toEqual([notes, plan]);
    expect(withAttachment([plan, notes], plan)).toEqual([notes, plan]);
  });

  it("removes only the deleted attachment", () => {
    expect(withoutAttachment([notes, plan], plan.uuid_file_name)).toEqual([notes]);
    expect(withoutAttachment([notes], plan.uuid_file_name)).toEqual([notes]);
  });
});
