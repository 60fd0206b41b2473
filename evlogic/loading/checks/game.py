# Generated from evlogic/schemas/game.schema.json by fastjsonschema:
# python -m evlogic.loading.schema writes it again.  Do not edit.
# mypy: ignore-errors
# ruff: noqa
from decimal import Decimal
import re
class JsonSchemaValueException(ValueError):
    pass


JsonSchemaValuesException = JsonSchemaValueException


REGEX_PATTERNS = {
    '^[0-9]+$': re.compile('^[0-9]+\\Z')
}

NoneType = type(None)

def validate(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object")
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['board', 'players']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain ")
        data_keys = set(data.keys())
        if "board" in data_keys:
            data_keys.remove("board")
            data__board = data["board"]
            if not isinstance(data__board, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".board must be string")
            if isinstance(data__board, str):
                data__board_len = len(data__board)
                if data__board_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".board must be longer than or equal to 1 characters")
        if "rules" in data_keys:
            data_keys.remove("rules")
            data__rules = data["rules"]
            data__rules_one_of_count1 = 0
            if data__rules_one_of_count1 < 2:
                try:
                    if not isinstance(data__rules, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules must be string")
                    if isinstance(data__rules, str):
                        data__rules_len = len(data__rules)
                        if data__rules_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules must be longer than or equal to 1 characters")
                    data__rules_one_of_count1 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if data__rules_one_of_count1 < 2:
                try:
                    if not isinstance(data__rules, (dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules must be object")
                    data__rules_is_dict = isinstance(data__rules, dict)
                    if data__rules_is_dict:
                        data__rules_keys = set(data__rules.keys())
                        if "name" in data__rules_keys:
                            data__rules_keys.remove("name")
                            data__rules__name = data__rules["name"]
                            if not isinstance(data__rules__name, (str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.name must be string")
                            if isinstance(data__rules__name, str):
                                data__rules__name_len = len(data__rules__name)
                                if data__rules__name_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.name must be longer than or equal to 1 characters")
                        if "extends" in data__rules_keys:
                            data__rules_keys.remove("extends")
                            data__rules__extends = data__rules["extends"]
                            if not isinstance(data__rules__extends, (str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.extends must be string")
                            if isinstance(data__rules__extends, str):
                                data__rules__extends_len = len(data__rules__extends)
                                if data__rules__extends_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.extends must be longer than or equal to 1 characters")
                        if "tiers" in data__rules_keys:
                            data__rules_keys.remove("tiers")
                            data__rules__tiers = data__rules["tiers"]
                            if not isinstance(data__rules__tiers, (dict)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.tiers must be object")
                            data__rules__tiers_is_dict = isinstance(data__rules__tiers, dict)
                            if data__rules__tiers_is_dict:
                                data__rules__tiers_len = len(data__rules__tiers)
                                if data__rules__tiers_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.tiers must contain at least 1 properties")
                                data__rules__tiers_keys = set(data__rules__tiers.keys())
                                for data__rules__tiers_key in data__rules__tiers_keys:
                                    if data__rules__tiers_key not in []:
                                        data__rules__tiers_value = data__rules__tiers.get(data__rules__tiers_key)
                                        if not isinstance(data__rules__tiers_value, (int)) and not (isinstance(data__rules__tiers_value, float) and data__rules__tiers_value.is_integer()) or isinstance(data__rules__tiers_value, bool):
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.tiers.{data__rules__tiers_key}".format(**locals()) + " must be integer")
                                        if isinstance(data__rules__tiers_value, (int, float, Decimal)):
                                            if data__rules__tiers_value < 0:
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.tiers.{data__rules__tiers_key}".format(**locals()) + " must be bigger than or equal to 0")
                                            if data__rules__tiers_value > 1000000:
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.tiers.{data__rules__tiers_key}".format(**locals()) + " must be smaller than or equal to 1000000")
                                if data__rules__tiers_len != 0:
                                    data__rules__tiers_property_names = True
                                    for data__rules__tiers_key in data__rules__tiers:
                                        try:
                                            if isinstance(data__rules__tiers_key, str):
                                                if not REGEX_PATTERNS['^[0-9]+$'].search(data__rules__tiers_key):
                                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.tiers must match pattern ^[0-9]+$")
                                        except (JsonSchemaValueException, JsonSchemaValuesException):
                                            data__rules__tiers_property_names = False
                                    if not data__rules__tiers_property_names:
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.tiers must be named by propertyName definition")
                        if "siege_penalty" in data__rules_keys:
                            data__rules_keys.remove("siege_penalty")
                            data__rules__siegepenalty = data__rules["siege_penalty"]
                            if not isinstance(data__rules__siegepenalty, (int)) and not (isinstance(data__rules__siegepenalty, float) and data__rules__siegepenalty.is_integer()) or isinstance(data__rules__siegepenalty, bool):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.siege_penalty must be integer")
                            if isinstance(data__rules__siegepenalty, (int, float, Decimal)):
                                if data__rules__siegepenalty < 0:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.siege_penalty must be bigger than or equal to 0")
                                if data__rules__siegepenalty > 1000000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.siege_penalty must be smaller than or equal to 1000000")
                        if "links_needed" in data__rules_keys:
                            data__rules_keys.remove("links_needed")
                            data__rules__linksneeded = data__rules["links_needed"]
                            if not isinstance(data__rules__linksneeded, (int)) and not (isinstance(data__rules__linksneeded, float) and data__rules__linksneeded.is_integer()) or isinstance(data__rules__linksneeded, bool):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.links_needed must be integer")
                            if isinstance(data__rules__linksneeded, (int, float, Decimal)):
                                if data__rules__linksneeded < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.links_needed must be bigger than or equal to 1")
                                if data__rules__linksneeded > 100:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.links_needed must be smaller than or equal to 100")
                        if "swing_multiplier" in data__rules_keys:
                            data__rules_keys.remove("swing_multiplier")
                            data__rules__swingmultiplier = data__rules["swing_multiplier"]
                            if not isinstance(data__rules__swingmultiplier, (int)) and not (isinstance(data__rules__swingmultiplier, float) and data__rules__swingmultiplier.is_integer()) or isinstance(data__rules__swingmultiplier, bool):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.swing_multiplier must be integer")
                            if isinstance(data__rules__swingmultiplier, (int, float, Decimal)):
                                if data__rules__swingmultiplier < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.swing_multiplier must be bigger than or equal to 1")
                                if data__rules__swingmultiplier > 100:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.swing_multiplier must be smaller than or equal to 100")
                        if "home_swing" in data__rules_keys:
                            data__rules_keys.remove("home_swing")
                            data__rules__homeswing = data__rules["home_swing"]
                            if not isinstance(data__rules__homeswing, (bool)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.home_swing must be boolean")
                        if "region" in data__rules_keys:
                            data__rules_keys.remove("region")
                            data__rules__region = data__rules["region"]
                            if not (isinstance(data__rules__region, str) and data__rules__region == 'best-core' or isinstance(data__rules__region, str) and data__rules__region == 'union'):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.region must be one of ['best-core', 'union']")
                        if "game_end" in data__rules_keys:
                            data__rules_keys.remove("game_end")
                            data__rules__gameend = data__rules["game_end"]
                            if not isinstance(data__rules__gameend, (int)) and not (isinstance(data__rules__gameend, float) and data__rules__gameend.is_integer()) or isinstance(data__rules__gameend, bool):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.game_end must be integer")
                            if isinstance(data__rules__gameend, (int, float, Decimal)):
                                if data__rules__gameend < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.game_end must be bigger than or equal to 1")
                                if data__rules__gameend > 1000000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.game_end must be smaller than or equal to 1000000")
                        if "moves" in data__rules_keys:
                            data__rules_keys.remove("moves")
                            data__rules__moves = data__rules["moves"]
                            if not isinstance(data__rules__moves, (str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.moves must be string")
                            if isinstance(data__rules__moves, str):
                                data__rules__moves_len = len(data__rules__moves)
                                if data__rules__moves_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.moves must be longer than or equal to 1 characters")
                        if "market_size" in data__rules_keys:
                            data__rules_keys.remove("market_size")
                            data__rules__marketsize = data__rules["market_size"]
                            if not isinstance(data__rules__marketsize, (int)) and not (isinstance(data__rules__marketsize, float) and data__rules__marketsize.is_integer()) or isinstance(data__rules__marketsize, bool):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.market_size must be integer")
                            if isinstance(data__rules__marketsize, (int, float, Decimal)):
                                if data__rules__marketsize < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.market_size must be bigger than or equal to 1")
                                if data__rules__marketsize > 1000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.market_size must be smaller than or equal to 1000")
                        if "campaign_income" in data__rules_keys:
                            data__rules_keys.remove("campaign_income")
                            data__rules__campaignincome = data__rules["campaign_income"]
                            if not isinstance(data__rules__campaignincome, (int)) and not (isinstance(data__rules__campaignincome, float) and data__rules__campaignincome.is_integer()) or isinstance(data__rules__campaignincome, bool):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.campaign_income must be integer")
                            if isinstance(data__rules__campaignincome, (int, float, Decimal)):
                                if data__rules__campaignincome < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.campaign_income must be bigger than or equal to 1")
                                if data__rules__campaignincome > 1000000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.campaign_income must be smaller than or equal to 1000000")
                        if "programs" in data__rules_keys:
                            data__rules_keys.remove("programs")
                            data__rules__programs = data__rules["programs"]
                            if not isinstance(data__rules__programs, (list, tuple)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.programs must be array")
                            data__rules__programs_is_list = isinstance(data__rules__programs, (list, tuple))
                            if data__rules__programs_is_list:
                                data__rules__programs_len = len(data__rules__programs)
                                for data__rules__programs_x, data__rules__programs_item in enumerate(data__rules__programs):
                                    if not isinstance(data__rules__programs_item, (str)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.programs[{data__rules__programs_x}]".format(**locals()) + " must be string")
                                    if isinstance(data__rules__programs_item, str):
                                        data__rules__programs_item_len = len(data__rules__programs_item)
                                        if data__rules__programs_item_len < 1:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules.programs[{data__rules__programs_x}]".format(**locals()) + " must be longer than or equal to 1 characters")
                        if data__rules_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules must not contain "+str(data__rules_keys)+" properties")
                    data__rules_one_of_count1 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if data__rules_one_of_count1 != 1:
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".rules must be valid exactly by one definition")
        if "players" in data_keys:
            data_keys.remove("players")
            data__players = data["players"]
            if not isinstance(data__players, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".players must be array")
            data__players_is_list = isinstance(data__players, (list, tuple))
            if data__players_is_list:
                data__players_len = len(data__players)
                if data__players_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".players must contain at least 1 items")
                for data__players_x, data__players_item in enumerate(data__players):
                    if not isinstance(data__players_item, (dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".players[{data__players_x}]".format(**locals()) + " must be object")
                    data__players_item_is_dict = isinstance(data__players_item, dict)
                    if data__players_item_is_dict:
                        data__players_item__missing_keys = set(['name', 'home']) - data__players_item.keys()
                        if data__players_item__missing_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".players[{data__players_x}]".format(**locals()) + " must contain ")
                        data__players_item_keys = set(data__players_item.keys())
                        if "name" in data__players_item_keys:
                            data__players_item_keys.remove("name")
                            data__players_item__name = data__players_item["name"]
                            if not isinstance(data__players_item__name, (str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".players[{data__players_x}].name".format(**locals()) + " must be string")
                            if isinstance(data__players_item__name, str):
                                data__players_item__name_len = len(data__players_item__name)
                                if data__players_item__name_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".players[{data__players_x}].name".format(**locals()) + " must be longer than or equal to 1 characters")
                        if "home" in data__players_item_keys:
                            data__players_item_keys.remove("home")
                            data__players_item__home = data__players_item["home"]
                            if not isinstance(data__players_item__home, (str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".players[{data__players_x}].home".format(**locals()) + " must be string")
                            if isinstance(data__players_item__home, str):
                                data__players_item__home_len = len(data__players_item__home)
                                if data__players_item__home_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".players[{data__players_x}].home".format(**locals()) + " must be longer than or equal to 1 characters")
                        if "states" in data__players_item_keys:
                            data__players_item_keys.remove("states")
                            data__players_item__states = data__players_item["states"]
                            if not isinstance(data__players_item__states, (list, tuple)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".players[{data__players_x}].states".format(**locals()) + " must be array")
                            data__players_item__states_is_list = isinstance(data__players_item__states, (list, tuple))
                            if data__players_item__states_is_list:
                                def fn(var): return frozenset(dict((k, fn(v)) for k, v in var.items()).items()) if hasattr(var, "items") else tuple(fn(v) for v in var) if isinstance(var, (dict, list)) else str(var) if isinstance(var, bool) else var
                                data__players_item__states_len = len(data__players_item__states)
                                if data__players_item__states_len > len(set(fn(data__players_item__states_x) for data__players_item__states_x in data__players_item__states)):
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".players[{data__players_x}].states".format(**locals()) + " must contain unique items")
                                for data__players_item__states_x, data__players_item__states_item in enumerate(data__players_item__states):
                                    if not isinstance(data__players_item__states_item, (str)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".players[{data__players_x}].states[{data__players_item__states_x}]".format(**locals()) + " must be string")
                                    if isinstance(data__players_item__states_item, str):
                                        data__players_item__states_item_len = len(data__players_item__states_item)
                                        if data__players_item__states_item_len < 1:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".players[{data__players_x}].states[{data__players_item__states_x}]".format(**locals()) + " must be longer than or equal to 1 characters")
                        if data__players_item_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".players[{data__players_x}]".format(**locals()) + " must not contain "+str(data__players_item_keys)+" properties")
        if "expect" in data_keys:
            data_keys.remove("expect")
            data__expect = data["expect"]
            if not isinstance(data__expect, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect must be object")
            data__expect_is_dict = isinstance(data__expect, dict)
            if data__expect_is_dict:
                data__expect_len = len(data__expect)
                if data__expect_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect must contain at least 1 properties")
                data__expect_keys = set(data__expect.keys())
                if "players" in data__expect_keys:
                    data__expect_keys.remove("players")
                    data__expect__players = data__expect["players"]
                    if not isinstance(data__expect__players, (dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players must be object")
                    data__expect__players_is_dict = isinstance(data__expect__players, dict)
                    if data__expect__players_is_dict:
                        data__expect__players_len = len(data__expect__players)
                        if data__expect__players_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players must contain at least 1 properties")
                        data__expect__players_keys = set(data__expect__players.keys())
                        for data__expect__players_key in data__expect__players_keys:
                            if data__expect__players_key not in []:
                                data__expect__players_value = data__expect__players.get(data__expect__players_key)
                                if not isinstance(data__expect__players_value, (dict)):
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}".format(**locals()) + " must be object")
                                data__expect__players_value_is_dict = isinstance(data__expect__players_value, dict)
                                if data__expect__players_value_is_dict:
                                    data__expect__players_value_len = len(data__expect__players_value)
                                    if data__expect__players_value_len < 1:
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}".format(**locals()) + " must contain at least 1 properties")
                                    data__expect__players_value_keys = set(data__expect__players_value.keys())
                                    if "total" in data__expect__players_value_keys:
                                        data__expect__players_value_keys.remove("total")
                                        data__expect__players_value__total = data__expect__players_value["total"]
                                        if not isinstance(data__expect__players_value__total, (int)) and not (isinstance(data__expect__players_value__total, float) and data__expect__players_value__total.is_integer()) or isinstance(data__expect__players_value__total, bool):
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.total".format(**locals()) + " must be integer")
                                        if isinstance(data__expect__players_value__total, (int, float, Decimal)):
                                            if data__expect__players_value__total < -2147483648:
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.total".format(**locals()) + " must be bigger than or equal to -2147483648")
                                            if data__expect__players_value__total > 2147483647:
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.total".format(**locals()) + " must be smaller than or equal to 2147483647")
                                    if "face_ev" in data__expect__players_value_keys:
                                        data__expect__players_value_keys.remove("face_ev")
                                        data__expect__players_value__faceev = data__expect__players_value["face_ev"]
                                        if not isinstance(data__expect__players_value__faceev, (int)) and not (isinstance(data__expect__players_value__faceev, float) and data__expect__players_value__faceev.is_integer()) or isinstance(data__expect__players_value__faceev, bool):
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.face_ev".format(**locals()) + " must be integer")
                                        if isinstance(data__expect__players_value__faceev, (int, float, Decimal)):
                                            if data__expect__players_value__faceev < -2147483648:
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.face_ev".format(**locals()) + " must be bigger than or equal to -2147483648")
                                            if data__expect__players_value__faceev > 2147483647:
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.face_ev".format(**locals()) + " must be smaller than or equal to 2147483647")
                                    if "region_bonus" in data__expect__players_value_keys:
                                        data__expect__players_value_keys.remove("region_bonus")
                                        data__expect__players_value__regionbonus = data__expect__players_value["region_bonus"]
                                        if not isinstance(data__expect__players_value__regionbonus, (int)) and not (isinstance(data__expect__players_value__regionbonus, float) and data__expect__players_value__regionbonus.is_integer()) or isinstance(data__expect__players_value__regionbonus, bool):
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.region_bonus".format(**locals()) + " must be integer")
                                        if isinstance(data__expect__players_value__regionbonus, (int, float, Decimal)):
                                            if data__expect__players_value__regionbonus < -2147483648:
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.region_bonus".format(**locals()) + " must be bigger than or equal to -2147483648")
                                            if data__expect__players_value__regionbonus > 2147483647:
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.region_bonus".format(**locals()) + " must be smaller than or equal to 2147483647")
                                    if "siege_penalty" in data__expect__players_value_keys:
                                        data__expect__players_value_keys.remove("siege_penalty")
                                        data__expect__players_value__siegepenalty = data__expect__players_value["siege_penalty"]
                                        if not isinstance(data__expect__players_value__siegepenalty, (int)) and not (isinstance(data__expect__players_value__siegepenalty, float) and data__expect__players_value__siegepenalty.is_integer()) or isinstance(data__expect__players_value__siegepenalty, bool):
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.siege_penalty".format(**locals()) + " must be integer")
                                        if isinstance(data__expect__players_value__siegepenalty, (int, float, Decimal)):
                                            if data__expect__players_value__siegepenalty < -2147483648:
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.siege_penalty".format(**locals()) + " must be bigger than or equal to -2147483648")
                                            if data__expect__players_value__siegepenalty > 2147483647:
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.siege_penalty".format(**locals()) + " must be smaller than or equal to 2147483647")
                                    if "net_bonus" in data__expect__players_value_keys:
                                        data__expect__players_value_keys.remove("net_bonus")
                                        data__expect__players_value__netbonus = data__expect__players_value["net_bonus"]
                                        if not isinstance(data__expect__players_value__netbonus, (int)) and not (isinstance(data__expect__players_value__netbonus, float) and data__expect__players_value__netbonus.is_integer()) or isinstance(data__expect__players_value__netbonus, bool):
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.net_bonus".format(**locals()) + " must be integer")
                                        if isinstance(data__expect__players_value__netbonus, (int, float, Decimal)):
                                            if data__expect__players_value__netbonus < -2147483648:
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.net_bonus".format(**locals()) + " must be bigger than or equal to -2147483648")
                                            if data__expect__players_value__netbonus > 2147483647:
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.net_bonus".format(**locals()) + " must be smaller than or equal to 2147483647")
                                    if "region_size" in data__expect__players_value_keys:
                                        data__expect__players_value_keys.remove("region_size")
                                        data__expect__players_value__regionsize = data__expect__players_value["region_size"]
                                        if not isinstance(data__expect__players_value__regionsize, (int)) and not (isinstance(data__expect__players_value__regionsize, float) and data__expect__players_value__regionsize.is_integer()) or isinstance(data__expect__players_value__regionsize, bool):
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.region_size".format(**locals()) + " must be integer")
                                        if isinstance(data__expect__players_value__regionsize, (int, float, Decimal)):
                                            if data__expect__players_value__regionsize < -2147483648:
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.region_size".format(**locals()) + " must be bigger than or equal to -2147483648")
                                            if data__expect__players_value__regionsize > 2147483647:
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.region_size".format(**locals()) + " must be smaller than or equal to 2147483647")
                                    if "siege" in data__expect__players_value_keys:
                                        data__expect__players_value_keys.remove("siege")
                                        data__expect__players_value__siege = data__expect__players_value["siege"]
                                        if not isinstance(data__expect__players_value__siege, (list, tuple)):
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.siege".format(**locals()) + " must be array")
                                        data__expect__players_value__siege_is_list = isinstance(data__expect__players_value__siege, (list, tuple))
                                        if data__expect__players_value__siege_is_list:
                                            def fn(var): return frozenset(dict((k, fn(v)) for k, v in var.items()).items()) if hasattr(var, "items") else tuple(fn(v) for v in var) if isinstance(var, (dict, list)) else str(var) if isinstance(var, bool) else var
                                            data__expect__players_value__siege_len = len(data__expect__players_value__siege)
                                            if data__expect__players_value__siege_len > len(set(fn(data__expect__players_value__siege_x) for data__expect__players_value__siege_x in data__expect__players_value__siege)):
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.siege".format(**locals()) + " must contain unique items")
                                            for data__expect__players_value__siege_x, data__expect__players_value__siege_item in enumerate(data__expect__players_value__siege):
                                                if not isinstance(data__expect__players_value__siege_item, (str)):
                                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.siege[{data__expect__players_value__siege_x}]".format(**locals()) + " must be string")
                                                if isinstance(data__expect__players_value__siege_item, str):
                                                    data__expect__players_value__siege_item_len = len(data__expect__players_value__siege_item)
                                                    if data__expect__players_value__siege_item_len < 1:
                                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}.siege[{data__expect__players_value__siege_x}]".format(**locals()) + " must be longer than or equal to 1 characters")
                                    if data__expect__players_value_keys:
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.players.{data__expect__players_key}".format(**locals()) + " must not contain "+str(data__expect__players_value_keys)+" properties")
                if "winners" in data__expect_keys:
                    data__expect_keys.remove("winners")
                    data__expect__winners = data__expect["winners"]
                    if not isinstance(data__expect__winners, (list, tuple)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.winners must be array")
                    data__expect__winners_is_list = isinstance(data__expect__winners, (list, tuple))
                    if data__expect__winners_is_list:
                        def fn(var): return frozenset(dict((k, fn(v)) for k, v in var.items()).items()) if hasattr(var, "items") else tuple(fn(v) for v in var) if isinstance(var, (dict, list)) else str(var) if isinstance(var, bool) else var
                        data__expect__winners_len = len(data__expect__winners)
                        if data__expect__winners_len > len(set(fn(data__expect__winners_x) for data__expect__winners_x in data__expect__winners)):
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.winners must contain unique items")
                        for data__expect__winners_x, data__expect__winners_item in enumerate(data__expect__winners):
                            if not isinstance(data__expect__winners_item, (str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.winners[{data__expect__winners_x}]".format(**locals()) + " must be string")
                            if isinstance(data__expect__winners_item, str):
                                data__expect__winners_item_len = len(data__expect__winners_item)
                                if data__expect__winners_item_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.winners[{data__expect__winners_x}]".format(**locals()) + " must be longer than or equal to 1 characters")
                if data__expect_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect must not contain "+str(data__expect_keys)+" properties")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties")
    return data