"""What the resolver applies: the effect of every instruction of the card language (GRAMMAR.md) and of the
crossings of a PC's Move. Importing this package fills `resolver.HANDLERS`."""

from __future__ import annotations

from ..resolver import HANDLERS
from .cards import (
    op_anchor, op_burn, op_flip, op_if, op_make_action, op_narrate, op_persistent, op_place_materials,
    op_place_terrain, op_run_event, op_seq, op_take, op_tokens,
)
from .characters import op_attack, op_attitude, op_burn_dead, op_damage, op_hit, op_npc_enter, op_place_npc
from .items import (
    op_equip_choice, op_gain_item, op_gain_materials, op_init_after_upgrade, op_overflow_choice, op_pay,
)
from .movement import op_pc_explore, op_pc_step
from .npc_ai import op_activate, op_ai_melee, op_ai_move, op_ai_ranged, op_ai_target
from .timeline import (
    op_check_defeat, op_defeat, op_draw_karma, op_karma_effect, op_karma_evolve, op_purple, op_retrieve,
    op_victory, op_window,
)

HANDLERS.update({
    "if": op_if, "seq": op_seq, "take": op_take, "flip": op_flip, "burn": op_burn, "anchor": op_anchor,
    "addTokens": op_tokens, "removeTokens": op_tokens, "placeNpc": op_place_npc, "npcEnter": op_npc_enter,
    "setAttitude": op_attitude, "damage": op_damage, "hit": op_hit, "gainItem": op_gain_item,
    "gainMaterials": op_gain_materials, "payMaterials": op_pay, "placeMaterials": op_place_materials,
    "placeTerrain": op_place_terrain, "makeAction": op_make_action, "persistent": op_persistent,
    "drawKarma": op_draw_karma, "karmaEvolve": op_karma_evolve, "karmaEffect": op_karma_effect,
    "attack": op_attack, "retrieveActions": op_retrieve, "actionWindow": op_window,
    "checkDefeat": op_check_defeat, "victory": op_victory, "defeat": op_defeat, "narrate": op_narrate,
    "purple": op_purple, "runEvent": op_run_event, "burnDead": op_burn_dead, "equipChoice": op_equip_choice,
    "overflowChoice": op_overflow_choice, "activate": op_activate, "aiTarget": op_ai_target, "aiMove": op_ai_move,
    "aiMelee": op_ai_melee, "aiRanged": op_ai_ranged,
    "pcStep": op_pc_step, "pcExplore": op_pc_explore, "initialiseAfterUpgrade": op_init_after_upgrade,
})
