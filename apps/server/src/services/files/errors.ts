import { AppError } from '../../http/errors';

/** The file is larger than uploads may be. */
export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super(413, 'payload_too_large', message);
  }
}

/** Files of this content type are not stored. */
export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super(415, 'unsupported_media_type', message);
  }
}
