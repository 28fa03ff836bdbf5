// Java's own modified UTF-8, as the peer for utf8conv's MUTF-8 golden files
// (run by gen.py in this directory; needs Java 11 or later).
//
//   java ModifiedUtf8.java encode < UTF-16BE > MUTF-8
//       DataOutputStream.writeUTF of the string whose UTF-16 code units
//       (lone surrogates included) are the input, without the 2-byte
//       length that writeUTF puts first.
//   java ModifiedUtf8.java decode < MUTF-8 > UTF-16BE
//       DataInputStream.readUTF of the input (given the length it
//       expects), written as UTF-16BE code units.
//
// writeUTF and readUTF take at most 65535 bytes, so longer texts go in
// pieces.  Modified UTF-8 writes each UTF-16 code unit on its own (a
// surrogate pair is two 3-byte forms), so cutting between any two code
// units, or before any byte that is not 10xxxxxx, changes nothing.

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

public class ModifiedUtf8 {
    // Code units (encode) or bytes (decode) per call: at most 3 bytes a
    // unit keeps writeUTF under its limit.
    static final int PIECE = 16384;

    public static void main(String[] args) throws IOException {
        byte[] in = System.in.readAllBytes();
        byte[] out;
        if (args.length == 1 && args[0].equals("encode")) {
            char[] units = new char[in.length / 2];
            for (int i = 0; i < units.length; i++)
                units[i] = (char) ((in[2 * i] & 0xFF) << 8 | (in[2 * i + 1] & 0xFF));
            ByteArrayOutputStream result = new ByteArrayOutputStream();
            int start = 0;
            do {
                int end = Math.min(units.length, start + PIECE);
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                new DataOutputStream(bytes).writeUTF(new String(units, start, end - start));
                byte[] all = bytes.toByteArray();
                result.write(all, 2, all.length - 2);
                start = end;
            } while (start < units.length);
            out = result.toByteArray();
        } else if (args.length == 1 && args[0].equals("decode")) {
            StringBuilder text = new StringBuilder();
            int start = 0;
            while (start < in.length) {
                int end = Math.min(in.length, start + PIECE);
                while (end < in.length && (in[end] & 0xC0) == 0x80)
                    end--;
                byte[] framed = new byte[end - start + 2];
                framed[0] = (byte) ((end - start) >> 8);
                framed[1] = (byte) (end - start);
                System.arraycopy(in, start, framed, 2, end - start);
                text.append(new DataInputStream(new ByteArrayInputStream(framed)).readUTF());
                start = end;
            }
            String s = text.toString();
            out = new byte[2 * s.length()];
            for (int i = 0; i < s.length(); i++) {
                out[2 * i] = (byte) (s.charAt(i) >> 8);
                out[2 * i + 1] = (byte) s.charAt(i);
            }
        } else {
            System.err.println("usage: java ModifiedUtf8.java encode|decode");
            System.exit(2);
            return;
        }
        System.out.write(out);
        System.out.flush();
    }
}
