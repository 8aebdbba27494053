/** The words a customer sees for a failed call: the edge's statusMessage when it sent one. */
export { CONNECTION_MESSAGE, GENERIC_MESSAGE, customerMessage as errorMessage } from '@tiffin/api-client';
