import type { Transaction } from '../../src/schema/types.js';

/**
 * A realistic agent session, written for the project: an agent fixes the CAN-bus driver of a
 * MyActuator RMD-X servo (protocol V3: commands on 0x140 + id, replies on 0x240 + id, little-endian
 * payloads). It has a task and steering, file views, a discovery that leads nowhere, two edits
 * that supersede earlier views, a failing-then-failing-then-passing test, and two claims that
 * contradict each other. The demo replays it and the materializer tests read it.
 */

const DRIVER_R0_1_40 = `"""Driver for MyActuator RMD-X servos over CAN (protocol V3)."""
import struct
from dataclasses import dataclass

import can

COMMAND_BASE = 0x140
REPLY_BASE = 0x140  # replies come back on the same identifier

CMD_MOTOR_OFF = 0x80
CMD_MOTOR_STOP = 0x81
CMD_READ_STATUS_2 = 0x9C
CMD_SPEED_CONTROL = 0xA2


@dataclass
class Status2:
    temperature_c: int
    torque_current_a: float
    speed_dps: int
    angle_deg: int


class RmdxMotor:
    def __init__(self, bus: can.BusABC, motor_id: int):
        if not 1 <= motor_id <= 32:
            raise ValueError("motor_id must be 1..32")
        self.bus = bus
        self.motor_id = motor_id

    def _send(self, payload: bytes) -> None:
        frame = can.Message(arbitration_id=COMMAND_BASE + self.motor_id,
                            data=payload, is_extended_id=False)
        self.bus.send(frame)

    def _receive(self, command: int, timeout: float = 0.05) -> bytes:
        deadline = self.bus.recv(timeout)
        while deadline is not None:`;

const DRIVER_R0_41_70 = `            if (deadline.arbitration_id == REPLY_BASE + self.motor_id
                    and deadline.data[0] == command):
                return bytes(deadline.data)
            deadline = self.bus.recv(timeout)
        raise TimeoutError(f"no reply to 0x{command:02X} from motor {self.motor_id}")

    def read_status_2(self) -> Status2:
        self._send(bytes([CMD_READ_STATUS_2, 0, 0, 0, 0, 0, 0, 0]))
        return parse_status_2(self._receive(CMD_READ_STATUS_2))


def parse_status_2(data: bytes) -> Status2:
    """Decode a 0x9C reply: temperature, torque current, speed, angle."""
    temperature = struct.unpack_from("<b", data, 1)[0]
    iq = struct.unpack_from("<h", data, 2)[0]
    speed = struct.unpack_from("<H", data, 4)[0]
    angle = struct.unpack_from("<h", data, 6)[0]
    return Status2(temperature_c=temperature,
                   torque_current_a=iq * 0.01,
                   speed_dps=speed,
                   angle_deg=angle)


def speed_command(speed_dps: float) -> bytes:
    """0xA2 payload: speed in 0.01 dps per LSB as int32."""
    return struct.pack("<B3xi", CMD_SPEED_CONTROL, int(speed_dps * 100))`;

const DOC_STATUS_2 = `### 0x9C Read Motor Status 2
Reply on identifier 0x240 + ID, 8 data bytes:
| byte | meaning | type | unit |
| 0 | command 0x9C | uint8 | |
| 1 | motor temperature | int8 | 1 °C/LSB |
| 2-3 | torque current iq | int16 | 0.01 A/LSB |
| 4-5 | motor speed | int16 | 1 dps/LSB |
| 6-7 | output shaft angle | int16 | 1 degree/LSB |
All multi-byte fields are little-endian.`;

const TEST_FAIL_1 = `============================= test session starts ==============================
collected 4 items

tests/test_status.py ..F.                                                [100%]

=================================== FAILURES ===================================
________________________ test_negative_speed_is_signed _________________________
    def test_negative_speed_is_signed():
        frame = bytes([0x9C, 0x20, 0x64, 0x00, 0x88, 0xFF, 0x10, 0x00])
>       assert parse_status_2(frame).speed_dps == -120
E       assert 65416 == -120
tests/test_status.py:31: AssertionError
=========================== short test summary info ============================
FAILED tests/test_status.py::test_negative_speed_is_signed - assert 65416 == -120
========================= 1 failed, 3 passed in 0.09s ==========================`;

const TEST_FAIL_2 = `============================= test session starts ==============================
collected 4 items

tests/test_status.py ...F                                                [100%]

=================================== FAILURES ===================================
___________________________ test_read_status_2_reply ___________________________
    def test_read_status_2_reply(fake_bus):
        fake_bus.queue_reply(0x241, bytes([0x9C, 0x20, 0x64, 0x00, 0x88, 0xFF, 0x10, 0x00]))
>       status = RmdxMotor(fake_bus, 1).read_status_2()
rmdx/driver.py:45: in _receive
E       TimeoutError: no reply to 0x9C from motor 1
=========================== short test summary info ============================
FAILED tests/test_status.py::test_read_status_2_reply - TimeoutError: no reply to 0x9C from motor 1
========================= 1 failed, 3 passed in 0.11s ==========================`;

const TEST_PASS = `============================= test session starts ==============================
collected 4 items

tests/test_status.py ....                                                [100%]

============================== 4 passed in 0.08s ===============================`;

const LS_OUTPUT = `rmdx/__init__.py
rmdx/driver.py
rmdx/cli.py
docs/protocol.md
tests/conftest.py
tests/test_status.py
setup.cfg`;

const TESTS_25_40 = `def test_positive_speed():
    frame = bytes([0x9C, 0x20, 0x64, 0x00, 0x78, 0x00, 0x10, 0x00])
    assert parse_status_2(frame).speed_dps == 120


def test_negative_speed_is_signed():
    frame = bytes([0x9C, 0x20, 0x64, 0x00, 0x88, 0xFF, 0x10, 0x00])
    assert parse_status_2(frame).speed_dps == -120


def test_read_status_2_reply(fake_bus):
    fake_bus.queue_reply(0x241, bytes([0x9C, 0x20, 0x64, 0x00, 0x88, 0xFF, 0x10, 0x00]))
    status = RmdxMotor(fake_bus, 1).read_status_2()
    assert status.temperature_c == 32
    assert status.torque_current_a == 1.0
    assert status.angle_deg == 16`;

const CANDUMP = `  can0  141   [8]  9C 00 00 00 00 00 00 00
  can0  241   [8]  9C 20 64 00 88 FF 10 00`;

const step = (
  n: number,
  tool: string,
  command: string,
  output: string,
  reasoning: string,
): Pick<Transaction, 'nodes' | 'edges'> & {
  nodes: NonNullable<Transaction['nodes']>;
  edges: NonNullable<Transaction['edges']>;
} => ({
  nodes: [
    { id: `act:${n}`, kind: 'action', status: 'resolved', body: reasoning },
    { id: `call:${n}`, kind: 'tool_call', tool, body: command },
    { id: `result:${n}`, kind: 'tool_result', authority: 'tool:bash', body: output },
  ],
  edges: [
    { from: 'task:rmdx', to: `act:${n}`, kind: 'plans' },
    { from: `act:${n}`, to: `call:${n}`, kind: 'invokes' },
    { from: `call:${n}`, to: `result:${n}`, kind: 'produces' },
  ],
});

function tx(epoch: number, parts: ReturnType<typeof step>, extra: Omit<Transaction, 'epoch'> = {}): Transaction {
  return {
    epoch,
    nodes: [...parts.nodes, ...(extra.nodes ?? [])],
    edges: [...parts.edges, ...(extra.edges ?? [])],
    ...(extra.transitions ? { transitions: extra.transitions } : {}),
  };
}

export const RMDX_SESSION: readonly Transaction[] = [
  {
    epoch: 0,
    nodes: [
      {
        id: 'task:rmdx',
        kind: 'task',
        authority: 'user',
        body: 'RmdxMotor.read_status_2() times out on real hardware and reports huge speeds when the servo turns backwards. Fix the driver so status replies are received and decoded per the RMD-X protocol V3; keep tests/test_status.py green.',
      },
      {
        id: 'steer:api',
        kind: 'steering',
        authority: 'user',
        body: 'Do not change the public API of RmdxMotor, and keep the code Python 3.8 compatible.',
      },
    ],
    edges: [],
  },
  tx(
    1,
    step(
      1,
      'bash',
      'find . -name "*.py" -o -name "*.md" | sort',
      LS_OUTPUT,
      'Look at the layout of the repository first.',
    ),
  ),
  tx(
    2,
    step(
      2,
      'bash',
      "sed -n '1,40p' rmdx/driver.py",
      DRIVER_R0_1_40,
      'Read the top of the driver: constants and the receive loop.',
    ),
    {
      nodes: [
        {
          id: 'ev:driver:1-40',
          kind: 'evidence',
          authority: 'repo',
          path: 'rmdx/driver.py',
          revision: 'r0',
          range: [1, 40],
          body: DRIVER_R0_1_40,
        },
      ],
      edges: [{ from: 'result:2', to: 'ev:driver:1-40', kind: 'cites' }],
    },
  ),
  tx(3, step(3, 'bash', "sed -n '41,70p' rmdx/driver.py", DRIVER_R0_41_70, 'Read the status decoder.'), {
    nodes: [
      {
        id: 'ev:driver:41-70',
        kind: 'evidence',
        authority: 'repo',
        path: 'rmdx/driver.py',
        revision: 'r0',
        range: [41, 70],
        body: DRIVER_R0_41_70,
      },
    ],
    edges: [{ from: 'result:3', to: 'ev:driver:41-70', kind: 'cites' }],
  }),
  tx(
    4,
    step(
      4,
      'bash',
      'python -m pytest tests/test_status.py -q',
      TEST_FAIL_1,
      'Run the status tests to see the failure.',
    ),
    {
      nodes: [
        {
          id: 'ver:status:1',
          kind: 'verifier_outcome',
          authority: 'tool:bash',
          verifier: 'pytest tests/test_status.py',
          status: 'failed',
          body: 'FAILED tests/test_status.py::test_negative_speed_is_signed - assert 65416 == -120',
        },
        {
          id: 'claim:speed-unsigned',
          kind: 'claim',
          body: 'parse_status_2 decodes the speed field as unsigned ("<H"), so negative speeds wrap to 65416.',
        },
      ],
      edges: [
        { from: 'act:4', to: 'ver:status:1', kind: 'verified_by' },
        { from: 'task:rmdx', to: 'claim:speed-unsigned', kind: 'requires' },
        { from: 'claim:speed-unsigned', to: 'ev:driver:41-70', kind: 'supported_by' },
        { from: 'claim:speed-unsigned', to: 'ver:status:1', kind: 'supported_by' },
        { from: 'ver:status:1', to: 'ev:driver:41-70', kind: 'cites' },
      ],
    },
  ),
  tx(
    5,
    step(
      5,
      'bash',
      "sed -n '120,131p' docs/protocol.md",
      DOC_STATUS_2,
      'Check the protocol document for the speed field and reply identifier.',
    ),
    {
      nodes: [
        {
          id: 'ev:doc:status2',
          kind: 'evidence',
          authority: 'repo',
          path: 'docs/protocol.md',
          revision: 'd0',
          range: [120, 131],
          body: DOC_STATUS_2,
        },
        {
          id: 'claim:speed-tenths',
          kind: 'claim',
          body: 'The firmware reports speed in 0.1 dps per LSB, so the decoder must divide by 10.',
        },
        {
          id: 'claim:speed-dps',
          kind: 'claim',
          body: 'Speed in a 0x9C reply is int16 at 1 dps per LSB; no scaling is needed.',
        },
        {
          id: 'claim:reply-id',
          kind: 'claim',
          body: 'Replies arrive on 0x240 + motor id, but the driver filters on 0x140 + id (REPLY_BASE).',
        },
      ],
      edges: [
        { from: 'result:5', to: 'ev:doc:status2', kind: 'cites' },
        { from: 'claim:speed-dps', to: 'ev:doc:status2', kind: 'supported_by' },
        { from: 'claim:speed-dps', to: 'claim:speed-tenths', kind: 'contradicts' },
        { from: 'task:rmdx', to: 'claim:reply-id', kind: 'requires' },
        { from: 'claim:reply-id', to: 'ev:doc:status2', kind: 'supported_by' },
        { from: 'claim:reply-id', to: 'ev:driver:1-40', kind: 'supported_by' },
      ],
    },
  ),
  tx(6, step(6, 'bash', 'candump -n 2 can0', CANDUMP, 'Confirm on the bus which identifier the reply uses.'), {
    edges: [{ from: 'claim:reply-id', to: 'result:6', kind: 'supported_by' }],
  }),
  tx(
    7,
    step(
      7,
      'bash',
      `sed -i '56s/"<H"/"<h"/' rmdx/driver.py`,
      '',
      'Decode speed as signed int16, as the protocol says.',
    ),
    {
      nodes: [
        {
          id: 'rev:driver:r1',
          kind: 'artifact_revision',
          path: 'rmdx/driver.py',
          revision: 'r1',
          changed: [[56, 56]],
          body: '    speed = struct.unpack_from("<h", data, 4)[0]',
        },
      ],
      edges: [
        { from: 'act:7', to: 'rev:driver:r1', kind: 'mutates' },
        { from: 'call:7', to: 'rev:driver:r1', kind: 'mutates' },
      ],
    },
  ),
  tx(
    8,
    step(
      8,
      'bash',
      'python -m pytest tests/test_status.py -q',
      TEST_FAIL_2,
      'Re-run the tests after the signedness fix.',
    ),
    {
      nodes: [
        {
          id: 'ver:status:2',
          kind: 'verifier_outcome',
          authority: 'tool:bash',
          verifier: 'pytest tests/test_status.py',
          status: 'failed',
          body: 'FAILED tests/test_status.py::test_read_status_2_reply - TimeoutError: no reply to 0x9C from motor 1',
        },
      ],
      edges: [
        { from: 'act:8', to: 'ver:status:2', kind: 'verified_by' },
        { from: 'rev:driver:r1', to: 'ver:status:2', kind: 'verified_by' },
        { from: 'ver:status:2', to: 'ev:driver:1-40', kind: 'cites' },
      ],
      transitions: [{ id: 'claim:speed-unsigned', status: 'resolved' }],
    },
  ),
  tx(
    9,
    step(
      9,
      'bash',
      `sed -i '8s/REPLY_BASE = 0x140  # replies come back on the same identifier/REPLY_BASE = 0x240/' rmdx/driver.py`,
      '',
      'Replies come back on 0x240 + id: fix REPLY_BASE.',
    ),
    {
      nodes: [
        {
          id: 'rev:driver:r2',
          kind: 'artifact_revision',
          path: 'rmdx/driver.py',
          revision: 'r2',
          changed: [[8, 8]],
          body: 'REPLY_BASE = 0x240',
        },
      ],
      edges: [
        { from: 'act:9', to: 'rev:driver:r2', kind: 'mutates' },
        { from: 'call:9', to: 'rev:driver:r2', kind: 'mutates' },
      ],
    },
  ),
  tx(
    10,
    step(
      10,
      'bash',
      'python -m pytest tests/test_status.py -q',
      TEST_PASS,
      'Re-run the tests after fixing the reply identifier.',
    ),
    {
      nodes: [
        {
          id: 'ver:status:3',
          kind: 'verifier_outcome',
          authority: 'tool:bash',
          verifier: 'pytest tests/test_status.py',
          status: 'passed',
          body: '4 passed in 0.08s',
        },
      ],
      edges: [
        { from: 'act:10', to: 'ver:status:3', kind: 'verified_by' },
        { from: 'rev:driver:r2', to: 'ver:status:3', kind: 'verified_by' },
      ],
      transitions: [{ id: 'claim:reply-id', status: 'resolved' }],
    },
  ),
  tx(
    11,
    step(
      11,
      'bash',
      "sed -n '25,40p' tests/test_status.py",
      TESTS_25_40,
      'Read the existing status tests before adding a regression test.',
    ),
    {
      nodes: [
        {
          id: 'ev:tests:25-40',
          kind: 'evidence',
          authority: 'repo',
          path: 'tests/test_status.py',
          revision: 't0',
          range: [25, 40],
          body: TESTS_25_40,
        },
        {
          id: 'act:12',
          kind: 'action',
          status: 'open',
          body: 'Add a regression test: a negative speed read through read_status_2() on reply id 0x241.',
        },
      ],
      edges: [
        { from: 'result:11', to: 'ev:tests:25-40', kind: 'cites' },
        { from: 'task:rmdx', to: 'act:12', kind: 'plans' },
        { from: 'act:12', to: 'ev:tests:25-40', kind: 'cites' },
      ],
    },
  ),
];
