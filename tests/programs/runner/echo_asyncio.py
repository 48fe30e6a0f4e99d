# Echo loop over asyncio streams: the event loop waits in epoll_wait on a non-blocking
# stdin, then reads. Prompts "Line N? ", answers "You said X", says "Bye" at end of input.
import asyncio
import sys


async def main():
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    n = 0
    while True:
        sys.stdout.write(f"Line {n}? ")
        sys.stdout.flush()
        line = await reader.readline()
        if not line:
            break
        sys.stdout.write(f"You said {line.decode().rstrip()}\n")
        n += 1
    sys.stdout.write("Bye\n")
    sys.stdout.flush()


asyncio.run(main())
